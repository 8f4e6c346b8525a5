"""python -m credit.bench: credit's torch ops against torch eager, torch.compile and Triton (where installed) at
model widths, correctness first (each implementation against an fp32 reference), then the time of each; prints a
table and writes JSON. Needs a CUDA GPU and torch; importing this module needs neither.

    python -m credit.bench --ops layer_norm,rms_norm --dtypes bf16 --rows 4096 --json bench.json
"""
import argparse
import json
import platform
import statistics
import sys

MODEL_WIDTHS = (768, 1024, 2048, 4096, 5120, 8192, 12288, 16384)
OPS = ("layer_norm", "rms_norm", "add_rms_norm", "rms_softmax", "quant_int8", "softmax_backward")
DTYPES = ("bf16", "f16", "f32")
IMPLS = ("credit", "eager", "compile", "triton")
# The largest max |error| / (1 + |reference|) each implementation may show against the fp32 reference.
TOLERANCE = {"f32": 1e-4, "bf16": 2e-2, "f16": 4e-3}


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return v


def _widths(text):
    return [_positive(w) for w in text.replace(",", " ").split()] or _positive("")


def _choices(known):
    def parse(text):
        items = [w for w in text.replace(",", " ").split()]
        bad = [w for w in items if w not in known]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(bad) or 'empty list'} (known: {', '.join(known)})")
        return items
    return parse


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m credit.bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ops", type=_choices(OPS), default=list(OPS), help="comma-separated (default: all)")
    p.add_argument("--dtypes", type=_choices(DTYPES), default=["bf16"], help="bf16, f16, f32 (default: bf16)")
    p.add_argument("--widths", type=_widths, default=list(MODEL_WIDTHS), help="row widths N (default: model widths)")
    p.add_argument("--rows", type=_positive, default=4096, help="rows M (tokens; default 4096)")
    p.add_argument("--warmup", type=_positive, default=10)
    p.add_argument("--iters", type=_positive, default=100)
    p.add_argument("--impls", type=_choices(IMPLS), default=list(IMPLS),
                   help="credit, eager, compile, triton (default: all; triton where installed)")
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--json", default="credit-bench.json", help="where the results go (default credit-bench.json)")
    return p.parse_args(argv)


# Each op: (inputs of m x n in dtype, the credit call, torch eager, the fp32 reference, tensors read and written).

def _specs(torch):
    import torch.nn.functional as F
    from . import torch as ct
    eps = ct.SUPPORTED_EPS

    def rms(x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w

    def quant(x):
        amax = x.float().abs().amax(-1)
        scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))
        return torch.clamp(torch.round(x.float() / scale[..., None]), -127, 127).to(torch.int8), scale

    def smbwd(z, dy):
        y = torch.softmax(z, -1)
        return y * (dy - (y * dy).sum(-1, keepdim=True))

    def rsm(x):
        s = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        return torch.softmax((x - x.amax(-1, keepdim=True)) * s, -1)

    def f32(fn):
        return lambda *a: fn(*[t.float() for t in a])

    row, col = "row", "col"
    return {
        "layer_norm": ((row, col, col), lambda x, w, b: ct.layer_norm(x, w, b),
                       lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, eps),
                       f32(lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, eps)), 2),
        "rms_norm": ((row, col), lambda x, w: ct.rms_norm(x, w), rms, f32(rms), 2),
        "add_rms_norm": ((row, row, col), lambda x, r, w: ct.add_rms_norm(x, r, w),
                         lambda x, r, w: (rms(x + r, w), x + r), f32(lambda x, r, w: (rms(x + r, w), x + r)), 4),
        "rms_softmax": ((row,), lambda x: ct.rms_softmax(x), rsm, f32(rsm), 2),
        "quant_int8": ((row,), lambda x: ct.quant_int8(x), quant, quant, 1.25),
        "softmax_backward": ((row, row), lambda z, dy: ct.softmax_backward(z, dy), smbwd, f32(smbwd), 3),
    }


def _triton_impls(torch):
    """Triton kernels of rms_norm and layer_norm (one program per row), or {} without Triton."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return {}, None

    @triton.jit
    def rms_kernel(X, W, Y, N, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
        tl.store(Y + row * N + cols, (x * r * w).to(Y.dtype.element_ty), mask=mask)

    @triton.jit
    def ln_kernel(X, W, B, Y, N, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / N
        d = tl.where(mask, x - mean, 0.0)
        rstd = tl.rsqrt(tl.sum(d * d, axis=0) / N + eps)
        w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + row * N + cols, (d * rstd * w + b).to(Y.dtype.element_ty), mask=mask)

    def launch(kernel, x, *params):
        m, n = x.numel() // x.shape[-1], x.shape[-1]
        y = torch.empty_like(x)
        block = triton.next_power_of_2(n)
        kernel[(m,)](x, *params, y, n, 1e-5, BLOCK=block, num_warps=min(max(block // 256, 1), 16))
        return y

    return {"rms_norm": lambda x, w: launch(rms_kernel, x, w),
            "layer_norm": lambda x, w, b: launch(ln_kernel, x, w, b)}, triton.__version__


def _error(torch, got, want):
    got = got if isinstance(got, (tuple, list)) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    worst = 0.0
    for g, w in zip(got, want):
        w = w.float()
        worst = max(worst, ((g.float() - w).abs() / (1 + w.abs())).max().item())
    return worst


def _time_ms(torch, fn, args, warmup, iters):
    for _ in range(warmup):
        fn(*args)
    start = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for s, e in zip(start, end):
        s.record()
        fn(*args)
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(start, end))


def run(args):
    import torch
    torch.cuda.set_device(args.device)
    specs = _specs(torch)
    triton_impls, triton_version = _triton_impls(torch) if "triton" in args.impls else ({}, None)
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    results = []
    gen = torch.Generator(device="cuda").manual_seed(0)
    for op in args.ops:
        kinds, credit_fn, eager_fn, ref_fn, tensors_moved = specs[op]
        impls = {"credit": credit_fn, "eager": eager_fn}
        if "compile" in args.impls:
            impls["compile"] = torch.compile(eager_fn, dynamic=False)
        if op in triton_impls:
            impls["triton"] = triton_impls[op]
        impls = {k: v for k, v in impls.items() if k in args.impls}
        for dt in args.dtypes:
            for n in args.widths:
                shape = {"row": (args.rows, n), "col": (n,)}
                inputs = [torch.randn(shape[k], generator=gen, device="cuda").to(dtypes[dt]) for k in kinds]
                want = ref_fn(*inputs)
                nbytes = tensors_moved * args.rows * n * inputs[0].element_size()
                for impl, fn in impls.items():
                    row = {"op": op, "dtype": dt, "m": args.rows, "n": n, "impl": impl}
                    try:
                        err = _error(torch, fn(*inputs), want)
                        row.update(max_error=err, correct=err <= TOLERANCE[dt])
                        if row["correct"]:
                            ms = _time_ms(torch, fn, inputs, args.warmup, args.iters)
                            row.update(ms=ms, gbps=nbytes / ms / 1e6)
                    except Exception as e:  # an implementation that fails is reported, the others still run
                        row.update(correct=False, error=f"{type(e).__name__}: {e}")
                    results.append(row)
                    _print_row(row)
    out = {"device": torch.cuda.get_device_name(args.device), "torch": torch.__version__, "triton": triton_version,
           "python": platform.python_version(), "rows": args.rows, "results": results}
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {args.json}")
    return 0 if all(r.get("correct") for r in results if r["impl"] == "credit") else 1


def _print_row(r):
    if "ms" in r:
        status = f"{r['ms']:9.4f} ms {r['gbps']:7.0f} GB/s"
    elif "error" in r:
        status = f"error: {r['error'][:70]}"
    else:
        status = f"WRONG (max error {r['max_error']:.3g})"
    print(f"{r['op']:<18} {r['dtype']:<5} {r['m']:>6} x {r['n']:<7} {r['impl']:<8} {status}", flush=True)


def main(argv=None):
    args = parse_args(argv)
    try:
        import torch
    except ImportError as e:
        print(f"credit.bench needs torch: {e}", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("credit.bench needs a CUDA GPU: torch.cuda.is_available() is False", file=sys.stderr)
        return 3
    print(f"{'op':<18} {'dtype':<5} {'M':>6} x {'N':<7} {'impl':<8} time")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
