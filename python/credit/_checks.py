"""What the torch ops accept, checked before anything runs (on real and fake tensors alike): a clear TypeError,
ValueError or NotImplementedError, never a wrong result. No torch import here: the tensors bring their own."""
import math

# The kernels' eps is a compile-time constant of each declaration (src/core/workloads/*.hpp: `eps = 1e-5f`).
SUPPORTED_EPS = 1e-5

TORCH_DTYPES = {"torch.float32": "f32", "torch.bfloat16": "bf16", "torch.float16": "f16"}
# Row tensors, column parameters: 16-byte aligned (the kernels read rows as 16-byte groups).
_ALIGN = 16


def check_eps(op, eps):
    """The one place eps is checked: the kernels compute with SUPPORTED_EPS only."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"{op}: eps must be a float, got {type(eps).__name__}")
    if not math.isclose(float(eps), SUPPORTED_EPS, rel_tol=1e-6):
        raise NotImplementedError(f"{op}: eps={eps!r} is not supported: the kernels are compiled with "
                                  f"eps={SUPPORTED_EPS!r} (a constant of each workload's declaration)")


def dtype_name(op, name, t):
    key = str(t.dtype)
    if key not in TORCH_DTYPES:
        raise TypeError(f"{op}: {name} has dtype {t.dtype}; credit runs torch.float32, torch.bfloat16 and "
                        f"torch.float16")
    return TORCH_DTYPES[key]


def _tensor(op, name, t):
    if not all(hasattr(t, a) for a in ("dtype", "device", "shape", "is_contiguous", "numel")):
        raise TypeError(f"{op}: {name} must be a torch.Tensor, got {type(t).__name__}")
    dtype_name(op, name, t)
    if t.device.type != "cuda":
        raise ValueError(f"{op}: {name} is on {t.device}; credit runs on CUDA tensors")
    if not t.is_contiguous():
        raise ValueError(f"{op}: {name} is not contiguous (call .contiguous() first)")


def rows(op, named):
    """The row tensors [..., N] of an op, each checked against the first: same shape, dtype, device, contiguous.
    Returns (M, N, dtype name); leading dimensions flatten into M."""
    (first_name, first), *rest = named
    _tensor(op, first_name, first)
    if first.dim() < 1:
        raise ValueError(f"{op}: {first_name} must have at least one dimension [..., N], got a scalar")
    n = int(first.shape[-1])
    m = int(first.numel()) // n if n else 0
    if m < 1 or n < 1:
        raise ValueError(f"{op}: {first_name} of shape {tuple(first.shape)} has no elements")
    dt = dtype_name(op, first_name, first)
    for name, t in rest:
        _tensor(op, name, t)
        if tuple(t.shape) != tuple(first.shape):
            raise ValueError(f"{op}: {name} has shape {tuple(t.shape)}, {first_name} {tuple(first.shape)}: "
                             f"they must match")
        _same(op, first_name, first, name, t)
    return m, n, dt


def columns(op, n, first_name, first, named):
    """Column parameters: 1-D [N], of the rows' dtype and device, contiguous."""
    for name, t in named:
        _tensor(op, name, t)
        if tuple(t.shape) != (n,):
            raise ValueError(f"{op}: {name} has shape {tuple(t.shape)}, expected ({n},) (the last dimension of "
                             f"{first_name})")
        _same(op, first_name, first, name, t)


def aligned(op, named):
    """Device pointers the kernels can read: 16-byte aligned (a view at an odd offset is not)."""
    for name, t in named:
        if t.data_ptr() % _ALIGN:
            raise ValueError(f"{op}: {name}'s data is not {_ALIGN}-byte aligned (a view at an offset?): "
                             f"pass a fresh tensor (.clone())")


def _same(op, first_name, first, name, t):
    if t.dtype != first.dtype:
        raise TypeError(f"{op}: {name} has dtype {t.dtype}, {first_name} {first.dtype}: they must match")
    if t.device != first.device:
        raise ValueError(f"{op}: {name} is on {t.device}, {first_name} on {first.device}: they must match")
