"""PyTorch ops over credit's kernels, registered as torch.ops.credit.* (torch.library.custom_op, with fake
implementations for torch.compile). Each op checks its tensors (CUDA, fp32 / bf16 / fp16, contiguous, [..., N] with
leading dimensions flattened into rows, matching shapes, dtypes and devices) and raises TypeError, ValueError or
NotImplementedError otherwise. The schedule is picked once per (workload, dtype, shape, device) in a process; the
launch goes on torch.cuda.current_stream(); a workspace comes from torch's allocator, zero-filled once and kept per
problem, device and stream (so a captured CUDA graph replays it).

Ops and the workloads they run (`credit list`):
    layer_norm(x, weight, bias, eps)           layernorm          y                (autograd: x, weight, bias)
    rms_norm(x, weight, eps)                   rmsnorm            y
    add_rms_norm(x, residual, weight, eps)     add_rmsnorm        (y, x + residual)
    rms_softmax(x, eps)                        rms_softmax        softmax((x - max x) * rsqrt(mean x^2 + eps))
    quant_int8(x)                              quant_int8         (q int8, scale fp32 [...]): x ~ q * scale
    softmax_backward(logits, grad)             softmax_bwd        d/d logits of softmax(logits), given grad
    softmax_dropout_backward(logits, grad, mask)  softmax_dropout_bwd  the same of dropout(softmax(logits)): mask
                                                                  0 or 1 / keep probability
    layer_norm_input_backward(x, grad, eps)    layernorm_bwd      dx of layer_norm, grad at its normalised output
                                                                  (weight applied: grad = dy * weight)
eps: the kernels are compiled with 1e-5 (SUPPORTED_EPS); any other value raises NotImplementedError.
"""
import os
import threading
import warnings
from typing import Tuple

try:
    import torch
except ImportError as e:
    raise ImportError(f"credit.torch needs PyTorch (torch >= 2.4): {e}", name="torch") from e
if not hasattr(torch.library, "custom_op") or not hasattr(torch.library, "register_autograd"):
    raise ImportError(f"credit.torch needs torch >= 2.4 (torch.library.custom_op); this is torch {torch.__version__}",
                      name="torch")

from . import _api, _checks, _lib

SUPPORTED_EPS = _checks.SUPPORTED_EPS
CALIBRATION_ENV = "CREDIT_CALIBRATION"

_lock = threading.Lock()
_picks = {}        # (workload, dtype, m, n, device index) -> (credit_problem_t, workspace bytes, Selection)
_workspaces = {}   # (workload, dtype, schedule, p, m, n, device index, stream) -> zero-filled uint8 tensor
_calibration = None
# Schedules tried when the pick cannot run on this device (a calibration of another GPU model): every workload
# runs with them.
_FALLBACKS = (("staged", 1), ("global_reread", 1))


def set_calibration(path):
    """Select from this calibration file (the time model's pick) instead of the GPU's cached calibration and tuning
    cache; None: back to those. Forgets the picks made so far."""
    global _calibration
    with _lock:
        _calibration = None if path is None else os.fspath(path)
        _picks.clear()


def selection(workload, dtype, m, n, device=None):
    """The Selection the ops use for a workload in a torch dtype at m x n on a device (picking it if not yet)."""
    device = torch.device("cuda", torch.cuda.current_device()) if device is None else torch.device(device)
    return _problem(workload, _checks.TORCH_DTYPES[str(dtype)], m, n, device)[2]


def _select(workload, dt, m, n, device):
    """The pick, or None (with a warning saying why) when the calibration cannot answer: the ops then run a
    schedule that runs everything, unpicked."""
    path = _calibration or os.environ.get(CALIBRATION_ENV)
    try:
        if path:
            return _api.select(workload, dt, m, n, calibration=path)
        return _api.select(workload, dt, m, n, device=device.index)
    except _lib.NoCalibrationError as e:  # one warning per device, not per shape
        warnings.warn(f"credit: no schedules picked on {device}: {e}. Set {CALIBRATION_ENV} to a calibration file "
                      f"of this GPU model (e.g. PREFIX/share/credit/calibrations/h100.json), or call "
                      f"credit.torch.set_calibration(path)")
    except _lib.CreditError as e:
        warnings.warn(f"credit: no schedule picked for {workload} {dt} {m}x{n}: {e}")
    return None


def _problem(workload, dt, m, n, device):
    key = (workload, dt, m, n, device.index)
    with _lock:
        hit = _picks.get(key)
        if hit is not None:
            return hit
        with torch.cuda.device(device):
            pick = _select(workload, dt, m, n, device)
            refused = []
            picked = ((pick.schedule, pick.p),) if pick else ()
            for schedule, p in picked + _FALLBACKS:
                pb = _api.problem(workload, dt, schedule, p, m, n)
                ok, why = _api.can_implement(pb)
                if ok:
                    break
                refused.append(f"{schedule} P={p}: {why}")
            else:
                raise _lib.NotSupportedError(f"{workload} {dt} {m}x{n}: no schedule runs on {device}: "
                                             + "; ".join(refused), _lib.NOT_SUPPORTED)
            if refused and pick:
                warnings.warn(f"credit: {workload} {dt} {m}x{n}: the pick cannot run on {device} ({refused[0]}); "
                              f"running {schedule} P={p}")
            if refused or not pick:
                pick = _api.Selection(schedule, p, 0.0, False)
            hit = _picks[key] = (pb, _api.workspace_size(pb), pick)
        return hit


def _workspace(workload, dt, pb, nbytes, m, n, x):
    if nbytes == 0:
        return None
    stream = torch.cuda.current_stream(x.device)
    key = (workload, dt, pb.schedule, pb.p, m, n, x.device.index, stream.cuda_stream)
    with _lock:
        ws = _workspaces.get(key)
        if ws is None:  # zero-filled on the launch's stream, once: each run leaves it ready for the next
            ws = _workspaces[key] = torch.zeros(nbytes, dtype=torch.uint8, device=x.device)
        return ws


def _call(op, workload, rows, cols=(), outs=("like",), row_outs=0, eps=None, fake=False):
    """Checks an op's tensors, allocates its outputs and (unless fake) runs the workload. rows and cols: (name,
    tensor) pairs in the workload's order; outs: "like" (the rows' dtype) or "int8" per output; row_outs: fp32
    outputs of the leading shape. Returns the outputs, then the row outputs."""
    if eps is not None:
        _checks.check_eps(op, eps)
    m, n, dt = _checks.rows(op, list(rows))
    first_name, x = rows[0]
    _checks.columns(op, n, first_name, x, list(cols))
    outputs = [torch.empty_like(x) if o == "like" else torch.empty_like(x, dtype=torch.int8) for o in outs]
    row_outputs = [torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device) for _ in range(row_outs)]
    if not fake:
        _checks.aligned(op, list(rows) + list(cols))
        pb, nbytes, _ = _problem(workload, dt, m, n, x.device)
        ws = _workspace(workload, dt, pb, nbytes, m, n, x)
        with torch.cuda.device(x.device):
            _api.run(pb, [t.data_ptr() for _, t in rows], [t.data_ptr() for _, t in cols], [],
                     [t.data_ptr() for t in outputs], [t.data_ptr() for t in row_outputs],
                     0 if ws is None else ws.data_ptr(), nbytes, torch.cuda.current_stream(x.device).cuda_stream)
    return outputs + row_outputs


# Each op: its real implementation and its fake one share _call (fake=True: the checks and the outputs' shapes).

@torch.library.custom_op("credit::layer_norm", mutates_args=())
def _layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    return _call("layer_norm", "layernorm", [("x", x)], [("weight", weight), ("bias", bias)], eps=eps)[0]


@_layer_norm.register_fake
def _(x, weight, bias, eps):
    return _call("layer_norm", "layernorm", [("x", x)], [("weight", weight), ("bias", bias)], eps=eps, fake=True)[0]


@torch.library.custom_op("credit::rms_norm", mutates_args=())
def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return _call("rms_norm", "rmsnorm", [("x", x)], [("weight", weight)], eps=eps)[0]


@_rms_norm.register_fake
def _(x, weight, eps):
    return _call("rms_norm", "rmsnorm", [("x", x)], [("weight", weight)], eps=eps, fake=True)[0]


def _add_rms_norm_call(x, residual, weight, eps, fake):
    h, y = _call("add_rms_norm", "add_rmsnorm", [("x", x), ("residual", residual)], [("weight", weight)],
                 outs=("like", "like"), eps=eps, fake=fake)
    return y, h


@torch.library.custom_op("credit::add_rms_norm", mutates_args=())
def _add_rms_norm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                  eps: float) -> Tuple[torch.Tensor, torch.Tensor]:
    return _add_rms_norm_call(x, residual, weight, eps, False)


@_add_rms_norm.register_fake
def _(x, residual, weight, eps):
    return _add_rms_norm_call(x, residual, weight, eps, True)


@torch.library.custom_op("credit::rms_softmax", mutates_args=())
def _rms_softmax(x: torch.Tensor, eps: float) -> torch.Tensor:
    return _call("rms_softmax", "rms_softmax", [("x", x)], eps=eps)[0]


@_rms_softmax.register_fake
def _(x, eps):
    return _call("rms_softmax", "rms_softmax", [("x", x)], eps=eps, fake=True)[0]


@torch.library.custom_op("credit::quant_int8", mutates_args=())
def _quant_int8(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    q, scale = _call("quant_int8", "quant_int8", [("x", x)], outs=("int8",), row_outs=1)
    return q, scale


@_quant_int8.register_fake
def _(x):
    q, scale = _call("quant_int8", "quant_int8", [("x", x)], outs=("int8",), row_outs=1, fake=True)
    return q, scale


@torch.library.custom_op("credit::softmax_backward", mutates_args=())
def _softmax_backward(logits: torch.Tensor, grad: torch.Tensor) -> torch.Tensor:
    return _call("softmax_backward", "softmax_bwd", [("logits", logits), ("grad", grad)])[0]


@_softmax_backward.register_fake
def _(logits, grad):
    return _call("softmax_backward", "softmax_bwd", [("logits", logits), ("grad", grad)], fake=True)[0]


@torch.library.custom_op("credit::softmax_dropout_backward", mutates_args=())
def _softmax_dropout_backward(logits: torch.Tensor, grad: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return _call("softmax_dropout_backward", "softmax_dropout_bwd",
                 [("logits", logits), ("grad", grad), ("mask", mask)])[0]


@_softmax_dropout_backward.register_fake
def _(logits, grad, mask):
    return _call("softmax_dropout_backward", "softmax_dropout_bwd",
                 [("logits", logits), ("grad", grad), ("mask", mask)], fake=True)[0]


@torch.library.custom_op("credit::layer_norm_input_backward", mutates_args=())
def _layer_norm_input_backward(x: torch.Tensor, grad: torch.Tensor, eps: float) -> torch.Tensor:
    return _call("layer_norm_input_backward", "layernorm_bwd", [("x", x), ("grad", grad)], eps=eps)[0]


@_layer_norm_input_backward.register_fake
def _(x, grad, eps):
    return _call("layer_norm_input_backward", "layernorm_bwd", [("x", x), ("grad", grad)], eps=eps, fake=True)[0]


# Autograd of layer_norm: dx by the layernorm_bwd workload (grad = dy * weight), dweight and dbias by torch's
# column sums in fp32 (no workload reduces over rows). The other forward ops have no backward workload: calling
# backward through them raises torch's "no autograd" error.

def _layer_norm_setup(ctx, inputs, output):
    x, weight, bias, eps = inputs
    ctx.save_for_backward(x, weight)
    ctx.eps = eps


def _layer_norm_backward(ctx, dy):
    x, weight = ctx.saved_tensors
    dy = dy.contiguous()
    dx = dweight = dbias = None
    if ctx.needs_input_grad[0]:
        dx = _layer_norm_input_backward(x, (dy * weight).contiguous(), ctx.eps)
    if ctx.needs_input_grad[1] or ctx.needs_input_grad[2]:
        n = x.shape[-1]
        x32, dy32 = x.reshape(-1, n).float(), dy.reshape(-1, n).float()
        mean = x32.mean(1, keepdim=True)
        rstd = torch.rsqrt(x32.var(1, unbiased=False, keepdim=True) + ctx.eps)
        dweight = ((x32 - mean) * rstd * dy32).sum(0).to(weight.dtype)
        dbias = dy32.sum(0).to(weight.dtype)
    return dx, dweight, dbias, None


_layer_norm.register_autograd(_layer_norm_backward, setup_context=_layer_norm_setup)


# The public functions: eps defaults to the one the kernels support.

def layer_norm(x, weight, bias, eps=SUPPORTED_EPS):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last dimension."""
    return _layer_norm(x, weight, bias, eps)


def rms_norm(x, weight, eps=SUPPORTED_EPS):
    """x / sqrt(mean(x^2) + eps) * weight over the last dimension."""
    return _rms_norm(x, weight, eps)


def add_rms_norm(x, residual, weight, eps=SUPPORTED_EPS):
    """(rms_norm(x + residual, weight), x + residual)."""
    return _add_rms_norm(x, residual, weight, eps)


def rms_softmax(x, eps=SUPPORTED_EPS):
    """softmax((x - max x) * rsqrt(mean(x^2) + eps)) over the last dimension."""
    return _rms_softmax(x, eps)


def quant_int8(x):
    """(q, scale): q = clamp(rint(x / scale), -127, 127) int8, scale = amax(|x|) / 127 per row (fp32)."""
    return _quant_int8(x)


def softmax_backward(logits, grad):
    """The gradient at the logits of y = softmax(logits) given grad = dL/dy: y * (grad - sum(y * grad))."""
    return _softmax_backward(logits, grad)


def softmax_dropout_backward(logits, grad, mask):
    """The gradient at the logits of dropout(softmax(logits)) with mask (0 or 1 / keep probability)."""
    return _softmax_dropout_backward(logits, grad, mask)


def layer_norm_input_backward(x, grad, eps=SUPPORTED_EPS):
    """dx of layer_norm(x) given grad, the gradient at its normalised output with weight applied (dy * weight)."""
    return _layer_norm_input_backward(x, grad, eps)


OPS = {"layer_norm": layer_norm, "rms_norm": rms_norm, "add_rms_norm": add_rms_norm, "rms_softmax": rms_softmax,
       "quant_int8": quant_int8, "softmax_backward": softmax_backward,
       "softmax_dropout_backward": softmax_dropout_backward, "layer_norm_input_backward": layer_norm_input_backward}
