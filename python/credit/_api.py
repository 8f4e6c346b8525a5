"""The C interface's calls as Python functions (no torch needed)."""
import ctypes
import dataclasses

from . import _lib

# credit_dtype_t by the names a caller may use: credit's ("f32", "bf16", "f16"), numpy's and torch's
# ("float32", "bfloat16", "float16", "torch.bfloat16").
_DTYPES = {"f32": 0, "fp32": 0, "float32": 0, "float": 0,
           "bf16": 1, "bfloat16": 1,
           "f16": 2, "fp16": 2, "float16": 2, "half": 2}
DTYPE_NAMES = ("f32", "bf16", "f16")


def dtype_code(dtype):
    """credit_dtype_t of a dtype name or torch dtype; ValueError naming the known ones otherwise."""
    key = str(dtype)
    key = key[len("torch."):] if key.startswith("torch.") else key
    if key not in _DTYPES:
        raise ValueError(f"unknown dtype {dtype!r} (known: f32, bf16, f16, or torch.float32, torch.bfloat16, "
                         f"torch.float16)")
    return _DTYPES[key]


@dataclasses.dataclass(frozen=True)
class Selection:
    """Which schedule runs a workload at M x N: `p` CTAs per row; `time_ms` predicted by the time model, or
    measured when `measured` (the GPU's tuning cache)."""
    schedule: str
    p: int
    time_ms: float
    measured: bool


@dataclasses.dataclass(frozen=True)
class WorkloadTensors:
    """The tensors a launch takes, by role, in order: inputs and outputs [M, N], col_params [N], row_params and
    row_outputs [M]; output_is_int8[i] says whether outputs[i] is int8 (else of the problem's dtype)."""
    name: str
    inputs: tuple
    col_params: tuple
    row_params: tuple
    outputs: tuple
    output_is_int8: tuple
    row_outputs: tuple


def version():
    """The library's version string, e.g. "0.1.0"."""
    return _lib.lib().credit_version_string().decode()


def version_tuple():
    v = [ctypes.c_int() for _ in range(3)]
    _lib.call("credit_version", *(ctypes.byref(x) for x in v))
    return tuple(x.value for x in v)


def workloads():
    """Every workload's name, in declaration order."""
    count = ctypes.c_int()
    _lib.call("credit_workload_count", ctypes.byref(count))
    names = []
    for i in range(count.value):
        name = ctypes.c_char_p()
        _lib.call("credit_workload_name", i, ctypes.byref(name))
        names.append(name.value.decode())
    return names


def workload_tensors(workload):
    """The tensors of a workload's launch (WorkloadTensors)."""
    info = _lib._WorkloadInfo()
    w = _encode(workload, "workload")
    _lib.call("credit_workload_info", w, ctypes.byref(info))

    def names(role, count):
        out = []
        for i in range(count):
            name = ctypes.c_char_p()
            _lib.call("credit_workload_tensor_name", w, role, i, ctypes.byref(name))
            out.append(name.value.decode())
        return tuple(out)

    return WorkloadTensors(workload, names(0, info.num_inputs), names(1, info.num_col_params),
                           names(2, info.num_row_params), names(3, info.num_outputs),
                           tuple(bool(info.output_is_int8 >> i & 1) for i in range(info.num_outputs)),
                           names(4, info.num_row_outputs))


def select(workload, dtype, m, n, calibration=None, device=None):
    """Which schedule runs `workload` in `dtype` at m x n (a Selection).

    calibration: a calibration file (e.g. PREFIX/share/credit/calibrations/h100.json): the time model's pick, no
    GPU needed. Otherwise on CUDA device `device` (default 0): its tuning cache's measured pick, else the time
    model's from its cached calibration (NoCalibrationError when `credit calibrate` has not run on it).
    """
    if calibration is not None and device is not None:
        raise ValueError("select: give a calibration file or a device, not both")
    code = dtype_code(dtype)
    m, n = _whole(m, "m"), _whole(n, "n")
    out = _lib._Selection()
    if calibration is not None:
        _lib.call("credit_select_offline", _encode(str(calibration), "calibration"), _encode(workload, "workload"),
                  code, m, n, ctypes.byref(out))
    else:
        _lib.call("credit_select", _encode(workload, "workload"), code, m, n,
                  _whole(0 if device is None else device, "device"), ctypes.byref(out))
    return Selection(out.schedule.decode(), out.p, out.time_ms, bool(out.measured))


def problem(workload, dtype, schedule, p, m, n):
    """A credit_problem_t (the strings it points to are kept on it)."""
    pb = _lib._Problem(_encode(workload, "workload"), dtype_code(dtype), _encode(schedule, "schedule"), p, m, n)
    return pb


def can_implement(pb):
    """(True, "") when the current CUDA device can run the problem, else (False, the reason)."""
    reason = ctypes.create_string_buffer(1024)
    status = _lib.lib().credit_can_implement(ctypes.byref(pb), reason, len(reason))
    if status == _lib.NOT_SUPPORTED:
        return False, reason.value.decode(errors="replace")
    _lib.check(status)
    return True, ""


def workspace_size(pb):
    size = ctypes.c_size_t()
    _lib.call("credit_workspace_size", ctypes.byref(pb), ctypes.byref(size))
    return size.value


def run(pb, inputs, col_params, row_params, outputs, row_outputs, workspace, workspace_bytes, stream):
    """Enqueues the problem on `stream` (a cudaStream_t as an int); every tensor a device pointer (int)."""
    arrays = [_lib.pointers(p) for p in (inputs, col_params, row_params, outputs, row_outputs)]
    t = _lib._Tensors(*[x for a in arrays for x in a])
    _lib.call("credit_run", ctypes.byref(pb), ctypes.byref(t), workspace or None, workspace_bytes, stream or None)


def _encode(s, what):
    if not isinstance(s, str):
        raise TypeError(f"{what} must be a str, got {type(s).__name__}")
    return s.encode()


def _whole(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an int, got {type(v).__name__}")
    return v
