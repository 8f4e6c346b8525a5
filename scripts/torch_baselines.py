#!/usr/bin/env python3
"""PyTorch eager, torch.compile and hand-written Triton baselines for the eleven credit workloads.

Runs on the GPU machine (torch + triton) and writes a "sweep" results file in the schema that
`credit` reads (src/io/json_records.hpp), so these points sit beside the CUDA schedules.

Per workload and width: fresh fp32 inputs; each implementation is run once on its own, checked
against a float64 eager reference (relative L2 <= 1e-5 per float output; quant_int8's int8 output
must equal the float32 formula exactly), then timed with triton.testing.do_bench (L2 flushed
between reps, median reported). The Triton baseline tries both natural one-program-per-row
schedules (DESIGN.md section 5) and keeps the faster: the whole row in registers (one read) and
a chunked loop that re-reads the row once per stage.

--dtype bf16 or f16 stores the per-element inputs, column parameters and float outputs in that type
(the same fp32 draws, rounded); per-row scalars stay fp32, int8 stays int8, and every implementation
computes in fp32 as credit's kernels do. The reference is float64 on the rounded inputs; a float
output may then also carry the type's rounding (credit's output_tolerance, src/core/element_type.hpp),
and the points are named "<workload>@bf16" / "<workload>@f16" as credit names its own.

  python3 scripts/torch_baselines.py --json out/torch_baselines.json
  python3 scripts/torch_baselines.py --workloads layernorm,quant_int8 --widths 4096,50257 --json r.json
  python3 scripts/torch_baselines.py --dtype bf16 --json out/torch_baselines_bf16.json
Exit status: 0 all passed, 1 some point incorrect or failed, 2 torch/triton/CUDA unavailable.
"""
from __future__ import annotations

import argparse
import ctypes
import functools
import json
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

try:
    import torch
    import torch.nn.functional as F
    import triton
    import triton.language as tl
    from triton.testing import do_bench
except ImportError as exc:  # not on the GPU machine
    print(f"torch_baselines.py: needs torch and triton ({exc}); run it on the GPU machine",
          file=sys.stderr)
    sys.exit(2)

# Constants of src/core/workloads/*.hpp. Triton kernels may only read constexpr globals.
EPS, LR, MOM, WD, ETA = 1e-5, 0.1, 0.9, 1e-4, 1e-3
_EPS, _LR, _MOM, _WD, _ETA = (tl.constexpr(v) for v in (EPS, LR, MOM, WD, ETA))
TOLERANCE = 1e-5
REF_CHUNK_ELEMS = 1 << 25  # float64 reference in row chunks: bounded memory at any width
IMPLS = ("torch_eager", "torch_compile", "triton")


@dataclass(frozen=True)
class ElemType:  # --dtype: storage of per-element inputs, column parameters and float outputs
    name: str
    dtype: object       # the torch dtype
    nbytes: int
    roundoff: float     # unit roundoff u (0 for f32: the fp32 tolerance alone)
    subnormal: float    # subnormal spacing s: rounding there errs by up to s / 2, absolutely


DTYPES = {e.name: e for e in (
    ElemType("f32", torch.float32, 4, 0.0, 0.0),
    ElemType("bf16", torch.bfloat16, 2, 2.0 ** -8, 2.0 ** -133),
    ElemType("f16", torch.float16, 2, 2.0 ** -11, 2.0 ** -24),
)}


# ---------------------------------------------------------------------------------------------
# Triton kernels: one program per row; arguments are (inputs..., outputs..., N, BLOCK).
# *_reg hold the whole row (BLOCK = next_power_of_2(N)) in registers and read it once;
# *_chk loop over the row in BLOCK chunks, re-reading it for every stage.
# Row offsets are int64: M * N can exceed 2^31.
# ---------------------------------------------------------------------------------------------
@triton.jit
def _div_rn(a, b):
    # IEEE division: Triton's fp32 '/' lowers to the approximate div.full.f32, and libdevice's
    # div_rn is linked with FTZ. quant_int8 must match the float32 formula bit for bit.
    return tl.inline_asm_elementwise("div.rn.f32 $0, $1, $2;", "=r,r,r", [a, b],
                                     dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def _rint(x):  # round half to even, like rintf and torch.round
    return tl.inline_asm_elementwise("cvt.rni.f32.f32 $0, $1;", "=r,r", [x],
                                     dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def _ln_reg(x_p, g_p, b_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    mu = tl.sum(x, 0) / N
    d = tl.where(k, x - mu, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, 0) / N + _EPS)
    g = tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
    y = d * rstd * g + tl.load(b_p + o, mask=k, other=0.0).to(tl.float32)
    tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _ln_chk(x_p, g_p, b_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        acc += tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)
    mu = tl.sum(acc, 0) / N
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        d = tl.where(k, tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - mu, 0.0)
        acc += d * d
    rstd = tl.rsqrt(tl.sum(acc, 0) / N + _EPS)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        g = tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
        y = (x - mu) * rstd * g + tl.load(b_p + o, mask=k, other=0.0).to(tl.float32)
        tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _lnbwd_reg(x_p, g_p, dx_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    g = tl.load(g_p + base + o, mask=k, other=0.0).to(tl.float32)  # g = 0 past the row: adds nothing below
    mu = tl.sum(x, 0) / N
    d = tl.where(k, x - mu, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, 0) / N + _EPS)
    mg = tl.sum(g, 0) / N
    c = rstd * rstd * (tl.sum(g * d, 0) / N)  # xhat mean(g xhat) = d c
    tl.store(dx_p + base + o, (rstd * (g - mg - d * c)).to(dx_p.dtype.element_ty), mask=k)


@triton.jit
def _lnbwd_chk(x_p, g_p, dx_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        acc += tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)
    mu = tl.sum(acc, 0) / N
    sdd = tl.zeros([BLOCK], tl.float32)
    sg = tl.zeros([BLOCK], tl.float32)
    sgd = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        d = tl.where(k, tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - mu, 0.0)
        g = tl.load(g_p + base + o, mask=k, other=0.0).to(tl.float32)
        sdd += d * d
        sg += g
        sgd += g * d
    rstd = tl.rsqrt(tl.sum(sdd, 0) / N + _EPS)
    mg = tl.sum(sg, 0) / N
    c = rstd * rstd * (tl.sum(sgd, 0) / N)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        d = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - mu
        g = tl.load(g_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(dx_p + base + o, (rstd * (g - mg - d * c)).to(dx_p.dtype.element_ty), mask=k)


@triton.jit
def _rmsn_reg(x_p, g_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    inv = tl.rsqrt(tl.sum(x * x, 0) / N + _EPS)
    y = x * inv * tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
    tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _rmsn_chk(x_p, g_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        x = tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        acc += x * x
    inv = tl.rsqrt(tl.sum(acc, 0) / N + _EPS)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        y = x * inv * tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
        tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _addrmsn_reg(x_p, r_p, g_p, h_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    h = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    h = h + tl.load(r_p + base + o, mask=k, other=0.0).to(tl.float32)
    inv = tl.rsqrt(tl.sum(h * h, 0) / N + _EPS)
    tl.store(h_p + base + o, h.to(h_p.dtype.element_ty), mask=k)
    y = h * inv * tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
    tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _addrmsn_chk(x_p, r_p, g_p, h_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        h = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        h = h + tl.load(r_p + base + o, mask=k, other=0.0).to(tl.float32)
        acc += h * h
    inv = tl.rsqrt(tl.sum(acc, 0) / N + _EPS)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        h = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        h = h + tl.load(r_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(h_p + base + o, h.to(h_p.dtype.element_ty), mask=k)
        y = h * inv * tl.load(g_p + o, mask=k, other=0.0).to(tl.float32)
        tl.store(y_p + base + o, y.to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _wvar_reg(x_p, w_p, gv_p, dx_p, dw_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    w = tl.load(w_p + base + o, mask=k, other=0.0).to(tl.float32)  # w = 0 past the row: adds nothing below
    inv_s = 1.0 / tl.sum(w, 0)
    d = x - tl.sum(w * x, 0) * inv_s
    v = tl.sum(w * d * d, 0) * inv_s
    gv = tl.load(gv_p + row)
    tl.store(dx_p + base + o, (gv * 2.0 * w * d * inv_s).to(dx_p.dtype.element_ty), mask=k)
    tl.store(dw_p + base + o, (gv * (d * d - v) * inv_s).to(dw_p.dtype.element_ty), mask=k)


@triton.jit
def _wvar_chk(x_p, w_p, gv_p, dx_p, dw_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    sw = tl.zeros([BLOCK], tl.float32)
    swx = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        x = tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        w = tl.load(w_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        sw += w
        swx += w * x
    inv_s = 1.0 / tl.sum(sw, 0)
    m = tl.sum(swx, 0) * inv_s
    sv = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        d = tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32) - m
        sv += tl.load(w_p + base + o, mask=o < N, other=0.0).to(tl.float32) * d * d
    v = tl.sum(sv, 0) * inv_s
    gv = tl.load(gv_p + row)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        d = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - m
        w = tl.load(w_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(dx_p + base + o, (gv * 2.0 * w * d * inv_s).to(dx_p.dtype.element_ty), mask=k)
        tl.store(dw_p + base + o, (gv * (d * d - v) * inv_s).to(dw_p.dtype.element_ty), mask=k)


@triton.jit
def _pearson_coef(saa, sbb, sab):  # constant rows (Saa or Sbb = 0) give 0 gradient terms
    d = tl.sqrt(saa * sbb)
    inv_d = tl.where(d > 0, 1.0 / d, 0.0)
    rho = sab * inv_d
    return inv_d, tl.where(saa > 0, rho / saa, 0.0), tl.where(sbb > 0, rho / sbb, 0.0)


@triton.jit
def _pearson_reg(x_p, y_p, gr_p, dx_p, dy_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    y = tl.load(y_p + base + o, mask=k, other=0.0).to(tl.float32)
    a = tl.where(k, x - tl.sum(x, 0) / N, 0.0)
    b = tl.where(k, y - tl.sum(y, 0) / N, 0.0)
    inv_d, ra, rb = _pearson_coef(tl.sum(a * a, 0), tl.sum(b * b, 0), tl.sum(a * b, 0))
    gr = tl.load(gr_p + row)
    tl.store(dx_p + base + o, (gr * (b * inv_d - ra * a)).to(dx_p.dtype.element_ty), mask=k)
    tl.store(dy_p + base + o, (gr * (a * inv_d - rb * b)).to(dy_p.dtype.element_ty), mask=k)


@triton.jit
def _pearson_chk(x_p, y_p, gr_p, dx_p, dy_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    sx = tl.zeros([BLOCK], tl.float32)
    sy = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        sx += tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        sy += tl.load(y_p + base + o, mask=o < N, other=0.0).to(tl.float32)
    mx = tl.sum(sx, 0) / N
    my = tl.sum(sy, 0) / N
    saa = tl.zeros([BLOCK], tl.float32)
    sbb = tl.zeros([BLOCK], tl.float32)
    sab = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        a = tl.where(k, tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - mx, 0.0)
        b = tl.where(k, tl.load(y_p + base + o, mask=k, other=0.0).to(tl.float32) - my, 0.0)
        saa += a * a
        sbb += b * b
        sab += a * b
    inv_d, ra, rb = _pearson_coef(tl.sum(saa, 0), tl.sum(sbb, 0), tl.sum(sab, 0))
    gr = tl.load(gr_p + row)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        a = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - mx
        b = tl.load(y_p + base + o, mask=k, other=0.0).to(tl.float32) - my
        tl.store(dx_p + base + o, (gr * (b * inv_d - ra * a)).to(dx_p.dtype.element_ty), mask=k)
        tl.store(dy_p + base + o, (gr * (a * inv_d - rb * b)).to(dy_p.dtype.element_ty), mask=k)


@triton.jit
def _smbwd_reg(z_p, dy_p, dx_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    z = tl.load(z_p + base + o, mask=k, other=-float("inf")).to(tl.float32)  # exp(-inf - m) = 0 past the row
    dy = tl.load(dy_p + base + o, mask=k, other=0.0).to(tl.float32)
    e = tl.exp(z - tl.max(z, 0))
    inv_z = 1.0 / tl.sum(e, 0)
    dot = tl.sum(e * dy, 0) * inv_z
    tl.store(dx_p + base + o, (e * inv_z * (dy - dot)).to(dx_p.dtype.element_ty), mask=k)


@triton.jit
def _smbwd_chk(z_p, dy_p, dx_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    mx = tl.full([BLOCK], -float("inf"), tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        mx = tl.maximum(mx, tl.load(z_p + base + o, mask=o < N, other=-float("inf")).to(tl.float32))
    m = tl.max(mx, 0)
    se = tl.zeros([BLOCK], tl.float32)
    sd = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        e = tl.exp(tl.load(z_p + base + o, mask=o < N, other=-float("inf")).to(tl.float32) - m)
        se += e
        sd += e * tl.load(dy_p + base + o, mask=o < N, other=0.0).to(tl.float32)
    inv_z = 1.0 / tl.sum(se, 0)
    dot = tl.sum(sd, 0) * inv_z
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        e = tl.exp(tl.load(z_p + base + o, mask=k, other=-float("inf")).to(tl.float32) - m)
        dy = tl.load(dy_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(dx_p + base + o, (e * inv_z * (dy - dot)).to(dx_p.dtype.element_ty), mask=k)


@triton.jit
def _smdbwd_reg(z_p, dy_p, k_p, dz_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    z = tl.load(z_p + base + o, mask=k, other=-float("inf")).to(tl.float32)
    dy = tl.load(dy_p + base + o, mask=k, other=0.0).to(tl.float32)
    g = dy * tl.load(k_p + base + o, mask=k, other=0.0).to(tl.float32)
    e = tl.exp(z - tl.max(z, 0))
    inv_z = 1.0 / tl.sum(e, 0)
    dot = tl.sum(e * g, 0) * inv_z
    tl.store(dz_p + base + o, (e * inv_z * (g - dot)).to(dz_p.dtype.element_ty), mask=k)


@triton.jit
def _smdbwd_chk(z_p, dy_p, k_p, dz_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    mx = tl.full([BLOCK], -float("inf"), tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        mx = tl.maximum(mx, tl.load(z_p + base + o, mask=o < N, other=-float("inf")).to(tl.float32))
    m = tl.max(mx, 0)
    se = tl.zeros([BLOCK], tl.float32)
    sd = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        e = tl.exp(tl.load(z_p + base + o, mask=o < N, other=-float("inf")).to(tl.float32) - m)
        se += e
        dy = tl.load(dy_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        sd += e * dy * tl.load(k_p + base + o, mask=o < N, other=0.0).to(tl.float32)
    inv_z = 1.0 / tl.sum(se, 0)
    dot = tl.sum(sd, 0) * inv_z
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        e = tl.exp(tl.load(z_p + base + o, mask=k, other=-float("inf")).to(tl.float32) - m)
        dy = tl.load(dy_p + base + o, mask=k, other=0.0).to(tl.float32)
        g = dy * tl.load(k_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(dz_p + base + o, (e * inv_z * (g - dot)).to(dz_p.dtype.element_ty), mask=k)


@triton.jit
def _lars_step(w2, g2):  # lr * trust; trust = 1 unless both norms are positive
    wn = tl.sqrt(w2)
    gn = tl.sqrt(g2)
    return _LR * tl.where((wn > 0) & (gn > 0), _ETA * wn / (gn + _WD * wn), 1.0)


@triton.jit
def _lars_reg(w_p, g_p, m_p, mn_p, wn_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    w = tl.load(w_p + base + o, mask=k, other=0.0).to(tl.float32)
    g = tl.load(g_p + base + o, mask=k, other=0.0).to(tl.float32)
    step = _lars_step(tl.sum(w * w, 0), tl.sum(g * g, 0))
    mn = _MOM * tl.load(m_p + base + o, mask=k, other=0.0).to(tl.float32) + step * (g + _WD * w)
    tl.store(mn_p + base + o, mn.to(mn_p.dtype.element_ty), mask=k)
    tl.store(wn_p + base + o, (w - mn).to(wn_p.dtype.element_ty), mask=k)


@triton.jit
def _lars_chk(w_p, g_p, m_p, mn_p, wn_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    sw = tl.zeros([BLOCK], tl.float32)
    sg = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        w = tl.load(w_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        g = tl.load(g_p + base + o, mask=o < N, other=0.0).to(tl.float32)
        sw += w * w
        sg += g * g
    step = _lars_step(tl.sum(sw, 0), tl.sum(sg, 0))
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        w = tl.load(w_p + base + o, mask=k, other=0.0).to(tl.float32)
        g = tl.load(g_p + base + o, mask=k, other=0.0).to(tl.float32)
        mn = _MOM * tl.load(m_p + base + o, mask=k, other=0.0).to(tl.float32) + step * (g + _WD * w)
        tl.store(mn_p + base + o, mn.to(mn_p.dtype.element_ty), mask=k)
        tl.store(wn_p + base + o, (w - mn).to(wn_p.dtype.element_ty), mask=k)


@triton.jit
def _quant_scale(amax, BLOCK: tl.constexpr):  # amax / 127 (IEEE), or 1 for an all-zero row
    a = tl.zeros([BLOCK], tl.float32) + amax
    return tl.where(a > 0, _div_rn(a, tl.full([BLOCK], 127.0, tl.float32)), 1.0)


@triton.jit
def _quant_apply(x, scale):
    return tl.minimum(tl.maximum(_rint(_div_rn(x, scale)), -127.0), 127.0).to(tl.int8)


@triton.jit
def _quant_reg(x_p, q_p, s_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    scale = _quant_scale(tl.max(tl.abs(x), 0), BLOCK)
    tl.store(q_p + base + o, _quant_apply(x, scale), mask=k)
    tl.store(s_p + row, tl.max(scale, 0))  # every lane holds the same scale


@triton.jit
def _quant_chk(x_p, q_p, s_p, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    am = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        am = tl.maximum(am, tl.abs(tl.load(x_p + base + o, mask=o < N, other=0.0).to(tl.float32)))
    scale = _quant_scale(tl.max(am, 0), BLOCK)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(q_p + base + o, _quant_apply(x, scale), mask=k)
    tl.store(s_p + row, tl.max(scale, 0))


@triton.jit
def _rmssm_reg(x_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o = tl.arange(0, BLOCK)
    k = o < N
    x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
    sc = tl.rsqrt(tl.sum(x * x, 0) / N + _EPS)
    m = tl.max(tl.where(k, x, -float("inf")), 0)
    e = tl.where(k, tl.exp((x - m) * sc), 0.0)
    tl.store(y_p + base + o, (e * (1.0 / tl.sum(e, 0))).to(y_p.dtype.element_ty), mask=k)


@triton.jit
def _rmssm_chk(x_p, y_p, N, BLOCK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * N
    o0 = tl.arange(0, BLOCK)
    sq = tl.zeros([BLOCK], tl.float32)
    mx = tl.full([BLOCK], -float("inf"), tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        sq += x * x
        mx = tl.maximum(mx, tl.where(k, x, -float("inf")))
    sc = tl.rsqrt(tl.sum(sq, 0) / N + _EPS)
    m = tl.max(mx, 0)
    se = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        se += tl.where(k, tl.exp((tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32) - m) * sc), 0.0)
    inv_z = 1.0 / tl.sum(se, 0)
    for s in range(0, N, BLOCK):
        o = s + o0
        k = o < N
        x = tl.load(x_p + base + o, mask=k, other=0.0).to(tl.float32)
        tl.store(y_p + base + o, (tl.exp((x - m) * sc) * inv_z).to(y_p.dtype.element_ty), mask=k)


# ---------------------------------------------------------------------------------------------
# Eager definitions: plain PyTorch, dtype-generic, so the same function on float64 inputs is the
# reference. Every one returns a tuple of outputs in the order of Spec.outputs.
# ---------------------------------------------------------------------------------------------
def layernorm_eager(x, gamma, beta):
    return (F.layer_norm(x, (x.shape[-1],), gamma, beta, EPS),)


def layernorm_bwd_eager(x, g):
    d = x - x.mean(-1, keepdim=True)
    rstd = torch.rsqrt(d.square().mean(-1, keepdim=True) + EPS)
    xhat = d * rstd
    return (rstd * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True)),)


def rmsnorm_eager(x, gamma):
    return (x * torch.rsqrt(x.square().mean(-1, keepdim=True) + EPS) * gamma,)


def add_rmsnorm_eager(x, r, gamma):
    h = x + r
    return (h, h * torch.rsqrt(h.square().mean(-1, keepdim=True) + EPS) * gamma)


def wvar_bwd_eager(x, w, gv):
    inv_s = 1.0 / w.sum(-1, keepdim=True)
    d = x - (w * x).sum(-1, keepdim=True) * inv_s
    v = (w * d * d).sum(-1, keepdim=True) * inv_s
    g = gv.unsqueeze(-1)
    return g * 2.0 * w * d * inv_s, g * (d * d - v) * inv_s


def pearson_bwd_eager(x, y, gr):
    a = x - x.mean(-1, keepdim=True)
    b = y - y.mean(-1, keepdim=True)
    saa = (a * a).sum(-1, keepdim=True)
    sbb = (b * b).sum(-1, keepdim=True)
    sab = (a * b).sum(-1, keepdim=True)
    d = torch.sqrt(saa * sbb)
    zero = torch.zeros_like(d)
    inv_d = torch.where(d > 0, 1.0 / d, zero)  # constant rows: 0 gradient terms
    rho = sab * inv_d
    r_saa = torch.where(saa > 0, rho / saa, zero)
    r_sbb = torch.where(sbb > 0, rho / sbb, zero)
    g = gr.unsqueeze(-1)
    return g * (b * inv_d - r_saa * a), g * (a * inv_d - r_sbb * b)


def softmax_bwd_eager(z, dy):
    p = torch.softmax(z, dim=-1)
    return (p * (dy - (p * dy).sum(-1, keepdim=True)),)


def softmax_dropout_bwd_eager(z, dy, k):
    p = torch.softmax(z, dim=-1)
    g = dy * k
    return (p * (g - (p * g).sum(-1, keepdim=True)),)


def lars_eager(w, g, m):
    wn = torch.linalg.vector_norm(w, dim=-1, keepdim=True)
    gn = torch.linalg.vector_norm(g, dim=-1, keepdim=True)
    trust = torch.where((wn > 0) & (gn > 0), ETA * wn / (gn + WD * wn), torch.ones_like(wn))
    m_new = MOM * m + (LR * trust) * (g + WD * w)
    return m_new, w - m_new


def quant_int8_eager(x):
    amax = x.abs().amax(dim=-1, keepdim=True)
    # Divide by a device tensor: ATen turns division by a Python scalar into a multiplication by
    # its float reciprocal, which is not the IEEE amax / 127 of the declaration.
    scale = torch.where(amax > 0, amax / torch.full_like(amax, 127.0), torch.ones_like(amax))
    q = torch.clamp(torch.round(x / scale), -127, 127).to(torch.int8)  # round: half to even
    return q, scale.squeeze(-1)


def rms_softmax_eager(x):
    s = torch.rsqrt(x.square().mean(-1, keepdim=True) + EPS)
    m = x.amax(-1, keepdim=True)
    return (torch.softmax((x - m) * s, dim=-1),)


# ---------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    name: str
    default_rows: int
    inputs: tuple[tuple[str, str], ...]        # (generator, shape); shape "row" [M,N], "col" [N], "rowp" [M]
    outputs: tuple[tuple[str, str, str], ...]  # (name, "f32" | "i8", "row" | "rowp")
    eager: Callable
    kernels: tuple                             # (registers kernel, chunked kernel)
    retained: int                              # row inputs the registers kernel holds at once
    bytes_per_elem: int                        # compulsory bytes per element
    row_bytes: int = 0                         # per-row scalars read or written (gv, gr, scale)
    ref_f32: bool = False                      # reference is the float32 formula, int8 exact


F32_ROW = lambda name: (name, "f32", "row")  # noqa: E731
SPECS = {s.name: s for s in (
    Spec("layernorm", 2048, (("normal", "row"), ("gamma", "col"), ("beta", "col")), (F32_ROW("y"),),
         layernorm_eager, (_ln_reg, _ln_chk), 1, 8),
    Spec("wvar_bwd", 4096, (("normal", "row"), ("uniform", "row"), ("normal", "rowp")),
         (F32_ROW("dx"), F32_ROW("dw")), wvar_bwd_eager, (_wvar_reg, _wvar_chk), 2, 16, 4),
    Spec("pearson_bwd", 4096, (("normal", "row"), ("normal", "row"), ("normal", "rowp")),
         (F32_ROW("dx"), F32_ROW("dy")), pearson_bwd_eager, (_pearson_reg, _pearson_chk), 2, 16, 4),
    Spec("softmax_bwd", 4096, (("normal", "row"), ("normal", "row")), (F32_ROW("dx"),),
         softmax_bwd_eager, (_smbwd_reg, _smbwd_chk), 2, 12),
    Spec("lars", 4096, (("normal", "row"),) * 3, (F32_ROW("m_new"), F32_ROW("w_new")),
         lars_eager, (_lars_reg, _lars_chk), 2, 20),
    Spec("quant_int8", 4096, (("normal", "row"),), (("q", "i8", "row"), ("scale", "f32", "rowp")),
         quant_int8_eager, (_quant_reg, _quant_chk), 1, 5, 4, ref_f32=True),
    Spec("rms_softmax", 4096, (("normal", "row"),), (F32_ROW("y"),),
         rms_softmax_eager, (_rmssm_reg, _rmssm_chk), 1, 8),
    Spec("rmsnorm", 4096, (("normal", "row"), ("gamma", "col")), (F32_ROW("y"),),
         rmsnorm_eager, (_rmsn_reg, _rmsn_chk), 1, 8),
    Spec("add_rmsnorm", 4096, (("normal", "row"), ("normal", "row"), ("gamma", "col")), (F32_ROW("h"), F32_ROW("y")),
         add_rmsnorm_eager, (_addrmsn_reg, _addrmsn_chk), 2, 16),
    Spec("softmax_dropout_bwd", 4096, (("normal", "row"), ("normal", "row"), ("uniform", "row")), (F32_ROW("dz"),),
         softmax_dropout_bwd_eager, (_smdbwd_reg, _smdbwd_chk), 3, 16),
    Spec("layernorm_bwd", 4096, (("normal", "row"), ("normal", "row")), (F32_ROW("dx"),),
         layernorm_bwd_eager, (_lnbwd_reg, _lnbwd_chk), 2, 12),
)}


def make_inputs(spec: Spec, M: int, N: int, gen, et: ElemType) -> list:
    out = []
    for kind, shape in spec.inputs:
        size = {"row": (M, N), "col": (N,), "rowp": (M,)}[shape]
        if kind == "uniform":  # wvar's w > 0: uniform(0.1, 2)
            t = torch.rand(size, device="cuda", generator=gen) * 1.9 + 0.1
        else:
            t = torch.randn(size, device="cuda", generator=gen)
            t = {"gamma": 1.0 + 0.1 * t, "beta": 0.1 * t}.get(kind, t)  # N(1, 0.1), N(0, 0.1)
        t = t.to(torch.float32)
        if shape != "rowp":  # the fp32 draws rounded: every type sees the same values up to rounding
            t = t.to(et.dtype)
        out.append(t.contiguous())
    return out


def out_dtype(dt: str, shape: str, et: ElemType):  # int8 stays int8, per-row scalars fp32
    return torch.int8 if dt == "i8" else et.dtype if shape == "row" else torch.float32


def alloc_outputs(spec: Spec, M: int, N: int, et: ElemType) -> tuple:
    return tuple(torch.empty((M, N) if shape == "row" else (M,), device="cuda", dtype=out_dtype(dt, shape, et))
                 for _, dt, shape in spec.outputs)


def peer_eager(spec: Spec, et: ElemType) -> Callable:
    """spec.eager as eager and torch.compile run it: itself in f32; in bf16/f16 on inputs upcast to
    fp32 (fp32 statistics, as credit's kernels) with the per-element float outputs rounded back.
    The float64 reference keeps calling spec.eager."""
    if et.dtype == torch.float32:
        return spec.eager
    eager, dtypes = spec.eager, tuple(out_dtype(dt, shape, et) for _, dt, shape in spec.outputs)

    def run(*inputs):
        outs = eager(*[t.float() for t in inputs])
        return tuple(o.to(d) for o, d in zip(outs, dtypes))
    return run


def bytes_per_elem(spec: Spec, et: ElemType) -> int:
    """Compulsory bytes per element: the declared fp32 figure, or in bf16/f16 each row input and
    float row output at et.nbytes, int8 at 1 (column parameters stay in L2: not counted, as in f32)."""
    if et.dtype == torch.float32:
        return spec.bytes_per_elem
    return (et.nbytes * sum(shape == "row" for _, shape in spec.inputs)
            + sum(1 if dt == "i8" else et.nbytes for _, dt, shape in spec.outputs if shape == "row"))


def poison(outs) -> None:  # an element a kernel never writes then fails the check
    for o in outs:
        o.fill_(-128 if o.dtype == torch.int8 else float("nan"))  # -128: never a valid q


# ---------------------------------------------------------------------------------------------
# Checking and timing
# ---------------------------------------------------------------------------------------------
def check(spec: Spec, inputs, got, M: int, N: int, et: ElemType) -> tuple[bool, float, str]:
    """Compares got with the reference in row chunks. Returns (ok, worst float rel L2, why not).
    The reference takes the inputs as stored (bf16/f16 upcast exactly), so both see the same values."""
    ref_dtype = torch.float32 if spec.ref_f32 else torch.float64
    nout = len(spec.outputs)
    num = [torch.zeros((), device="cuda", dtype=torch.float64) for _ in range(nout)]
    den = [torch.zeros((), device="cuda", dtype=torch.float64) for _ in range(nout)]
    bad = [torch.zeros((), device="cuda", dtype=torch.int64) for _ in range(nout)]
    rows = max(1, REF_CHUNK_ELEMS // N)
    for r0 in range(0, M, rows):
        r1 = min(M, r0 + rows)
        args = [(t if shape == "col" else t[r0:r1]).to(ref_dtype)
                for t, (_, shape) in zip(inputs, spec.inputs)]
        for k, (ref, (_, dt, _)) in enumerate(zip(spec.eager(*args), spec.outputs)):
            g = got[k][r0:r1]
            if dt == "i8":
                bad[k] += (g != ref).sum()
                continue
            bad[k] += (~torch.isfinite(g)).sum()
            ref = ref.double()
            diff = g.double() - ref
            num[k] += (diff * diff).sum()
            den[k] += (ref * ref).sum()
    worst, why = 0.0, []
    for k, (name, dt, shape) in enumerate(spec.outputs):
        nbad = int(bad[k].item())
        if dt == "i8":
            if nbad:
                why.append(f"{nbad} of {got[k].numel()} int8 elements of {name} differ from the "
                           f"float32 formula")
            continue
        n, d = num[k].item(), den[k].item()
        err = math.inf if nbad else (math.sqrt(n / d) if d > 0 else math.sqrt(n))
        worst = max(worst, err)
        tol = TOLERANCE
        if shape == "row" and et.roundoff:
            # Stored in bf16/f16: each element may also carry the type's rounding, u relative or half
            # the subnormal spacing absolute (credit's output_tolerance); none for an all-zero reference.
            tol = (TOLERANCE + et.roundoff + et.subnormal / 2 * math.sqrt(got[k].numel()) / math.sqrt(d)
                   if d > 0 else math.inf)
        if nbad:
            why.append(f"{nbad} non-finite elements of {name}")
        elif not err <= tol:
            why.append(f"relative L2 error of {name} {err:.3e} > {tol:g}")
    return not why, worst, "; ".join(why)


def time_ms(fn, warmup_ms: float, rep_ms: float) -> dict:
    """do_bench with L2 flushed between reps; every sample when this triton can return them."""
    res = None
    try:
        res = do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="all")
    except AssertionError:  # an older do_bench asserts on return_mode "all"
        pass
    if torch.is_tensor(res):
        res = res.tolist()
    if isinstance(res, (list, tuple)) and res:
        times = [float(t) for t in res]
        return {"median": statistics.median(times), "min": min(times), "max": max(times),
                "runs": len(times)}
    med = float(do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="median"))
    # No samples: the median stands for all three; runs as do_bench chooses them (rep / estimate).
    return {"median": med, "min": med, "max": med, "runs": max(1, int(rep_ms / max(med, 1e-6)))}


def short(exc: BaseException, limit: int = 600) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= limit else text[:limit] + " ..."


def triton_configs(spec: Spec, N: int, reg_max: int) -> list[tuple[str, int, int]]:
    cfgs = []
    if N <= reg_max:  # past 32K the row no longer fits registers without spilling (DESIGN.md 5)
        B = triton.next_power_of_2(N)
        # 1 to 128 row elements per thread across the retained inputs: more spills. bf16/f16 rows
        # are held upcast to fp32, so the same bounds hold in every --dtype.
        ws = [w for w in (4, 8, 16, 32) if 32 * w <= B and B * spec.retained <= 128 * 32 * w]
        if not ws:
            ws = [32] if B > 32 * 32 else [max(1, B // 32)]
        cfgs += [("registers", B, w) for w in ws]
    for B in (1024, 2048, 4096):
        if B <= max(1024, triton.next_power_of_2(N)):
            cfgs += [("chunked", B, w) for w in (4, 8, 16)]
    return cfgs


def launch(kernel, inputs, outs, N: int, block: int, warps: int):
    kernel[(outs[0].shape[0],)](*inputs, *outs, N, BLOCK=block, num_warps=warps)
    return outs


def tune_triton(spec: Spec, inputs, outs, N: int, args) -> tuple[Callable, str]:
    """Fastest (schedule, BLOCK, warps) by do_bench median; tuning is not part of the timing."""
    best: dict[str, tuple[float, int, int]] = {}
    errors = []
    for sched, block, warps in triton_configs(spec, N, args.reg_max):
        fn = functools.partial(launch, spec.kernels[sched == "chunked"], inputs, outs, N, block, warps)
        try:
            fn()  # compile outside the timing
            torch.cuda.synchronize()
            ms = time_ms(fn, max(1.0, args.tune_ms / 4), args.tune_ms)["median"]
        except Exception as exc:  # a config that does not compile or launch is skipped
            errors.append(f"{sched} BLOCK={block} warps={warps}: {short(exc, 300)}")
            continue
        if sched not in best or ms < best[sched][0]:
            best[sched] = (ms, block, warps)
    if not best:
        raise RuntimeError("no Triton configuration ran; first error: " + (errors[0] if errors else "none"))
    win = min(best, key=lambda s: best[s][0])
    _, block, warps = best[win]
    notes = [f"{win} BLOCK={block} warps={warps}"]
    for s in ("registers", "chunked"):
        if s == win:
            continue
        if s in best:
            notes.append(f"best {s} BLOCK={best[s][1]} warps={best[s][2]} {best[s][0]:.4f} ms vs "
                         f"{best[win][0]:.4f} ms in tuning")
        else:
            notes.append(f"{s} not run" + (f" (N > {args.reg_max})" if s == "registers" and N > args.reg_max else ""))
    if errors:
        notes.append(f"{len(errors)} config(s) raised, e.g. {errors[0]}")
    fn = functools.partial(launch, spec.kernels[win == "chunked"], inputs, outs, N, block, warps)
    return fn, "; ".join(notes)


def measure(spec: Spec, impl: str, inputs, M: int, N: int, args) -> tuple[str, str, dict | None, float]:
    """One implementation at one shape: (disposition, reason, time stat or None, rel L2 error)."""
    reason, err, outs = "", 0.0, None
    try:
        if impl == "torch_eager":
            run = functools.partial(peer_eager(spec, args.elem), *inputs)
        elif impl == "torch_compile":
            torch._dynamo.reset()  # fresh graph per shape: never hit the recompile limit
            compiled = torch.compile(peer_eager(spec, args.elem), dynamic=False)
            run = functools.partial(compiled, *inputs)
            run()
            run()  # compile and inductor's first-call autotuning, outside the timing
        else:
            outs = alloc_outputs(spec, M, N, args.elem)
            run, reason = tune_triton(spec, inputs, outs, N, args)
            poison(outs)
        got = run()
        torch.cuda.synchronize()
        ok, err, why = check(spec, inputs, got, M, N, args.elem)
        del got
        if not ok:
            if impl == "torch_compile" and spec.ref_f32 and not args.inductor_exact_div:
                why += " (inductor's fp32 '/' is approximate; see --inductor-exact-div)"
            return "incorrect", "; ".join(x for x in (why, reason) if x), None, err
        return "passed", reason, time_ms(run, args.warmup_ms, args.rep_ms), err
    except Exception as exc:
        return "failed", "; ".join(x for x in (short(exc), reason) if x), None, err
    finally:
        del outs
        torch.cuda.empty_cache()


def copy_bandwidth(args) -> float:
    """torch copy_ of 1 GiB fp32 into another buffer; bytes read + written per ms."""
    nbytes = 1 << 30
    src = torch.randn(nbytes // 4, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    ms = time_ms(lambda: dst.copy_(src), args.warmup_ms, args.rep_ms)["median"]
    del src, dst
    torch.cuda.empty_cache()
    return 2 * nbytes / (ms * 1e6)


# ---------------------------------------------------------------------------------------------
# Results file (schema of src/io/json_records.hpp)
# ---------------------------------------------------------------------------------------------
def num(x) -> float | None:  # JSON has no NaN or infinity: the C++ writer uses null
    x = float(x)
    return x if math.isfinite(x) else None


def device_info() -> dict:
    p = torch.cuda.get_device_properties(0)
    try:  # the driver API via triton: clocks and bus width, which torch may not expose
        tri = dict(triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device()))
    except Exception:
        tri = {}
    uuid = str(getattr(p, "uuid", "") or "")
    hexs = uuid.replace("-", "")
    if len(hexs) == 32 and all(c in "0123456789abcdefABCDEF" for c in hexs):
        uuid = f"{hexs[:8]}-{hexs[8:12]}-{hexs[12:16]}-{hexs[16:20]}-{hexs[20:]}"
    if uuid and not uuid.startswith("GPU-"):
        uuid = "GPU-" + uuid  # as nvidia-smi prints it
    driver = 0
    try:
        v = ctypes.c_int(0)
        if ctypes.CDLL("libcuda.so.1").cuDriverGetVersion(ctypes.byref(v)) == 0:
            driver = v.value
    except (OSError, AttributeError):
        pass
    try:  # the CUDA version torch was built with, in cudaRuntimeGetVersion's form (12080)
        runtime = int(torch._C._cuda_getCompiledVersion())
    except Exception:
        major, _, minor = (torch.version.cuda or "0.0").partition(".")
        runtime = int(major) * 1000 + int(minor.split(".")[0] or 0) * 10
    ival = lambda *xs: next((int(x) for x in xs if x), 0)  # noqa: E731  first known value
    return {
        "name": p.name, "uuid": uuid, "cc_major": int(p.major), "cc_minor": int(p.minor),
        "sm_count": int(p.multi_processor_count),
        "sm_clock_khz": ival(tri.get("sm_clock_rate"), getattr(p, "clock_rate", 0)),
        "mem_clock_khz": ival(tri.get("mem_clock_rate"), getattr(p, "memory_clock_rate", 0)),
        "mem_bus_width_bits": ival(tri.get("mem_bus_width"), getattr(p, "memory_bus_width", 0)),
        "smem_per_block_optin": ival(getattr(p, "shared_memory_per_block_optin", 0), tri.get("max_shared_mem")),
        "smem_per_sm": ival(getattr(p, "shared_memory_per_multiprocessor", 0)),
        "l2_bytes": ival(getattr(p, "L2_cache_size", 0)),
        "global_mem_bytes": int(p.total_memory),
        "driver_version": driver, "runtime_version": runtime,
        "cluster_launch": int(p.major) >= 9,
    }


def git_sha() -> str:
    sha = os.environ.get("CREDIT_GIT_SHA", "").strip()
    if not sha:  # a copy of the tree without .git names its commit in .git-sha, as CMakeLists.txt reads it
        f = Path(__file__).resolve().parent.parent / ".git-sha"
        sha = f.read_text().strip() if f.is_file() else ""
    return sha or "unknown"


def write_atomically(path: str, doc: dict) -> None:
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix="." + os.path.basename(path) + ".")
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; the results file is an ordinary file
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=2, sort_keys=True, allow_nan=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def typed_name(spec: Spec, et: ElemType) -> str:  # credit's name: pairs these points with its own
    return spec.name if et.dtype == torch.float32 else f"{spec.name}@{et.name}"


def make_point(spec, M, N, impl, disp, reason, stat, err, copy_gbps, et: ElemType) -> dict:
    cbytes = float(M * (N * bytes_per_elem(spec, et) + spec.row_bytes))
    stat = stat or {"median": 0.0, "min": 0.0, "max": 0.0, "runs": 0}
    gbps = cbytes / (stat["median"] * 1e6) if disp == "passed" and stat["median"] > 0 else 0.0
    return {
        "workload": typed_name(spec, et), "m": int(M), "n": int(N), "schedule": impl, "p": 1,
        "disposition": disp, "reason": reason,
        "time_ms": {"median": num(stat["median"]), "min": num(stat["min"]), "max": num(stat["max"]),
                    "runs": int(stat["runs"])},
        "compulsory_bytes": cbytes, "traffic_bytes": cbytes,
        "gbps": num(gbps), "pct_of_copy": num(100.0 * gbps / copy_gbps if copy_gbps > 0 else 0.0),
        "max_rel_l2_error": num(err),
    }


# ---------------------------------------------------------------------------------------------
def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workloads", default="all", help="all, or a comma list of " + ",".join(SPECS))
    ap.add_argument("--widths", default="4096,8192,16384,32768,65536,131072,262144")
    ap.add_argument("--rows", type=int, default=0, help="rows M (default: 2048 layernorm, 4096 others)")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma list of " + ",".join(IMPLS))
    ap.add_argument("--json", help="results file to write (rewritten atomically after every point)")
    ap.add_argument("--warmup-ms", type=float, default=25.0, help="do_bench warmup per timed point")
    ap.add_argument("--rep-ms", type=float, default=100.0, help="do_bench repetition time per timed point")
    ap.add_argument("--tune-ms", type=float, default=10.0, help="do_bench rep time per Triton config")
    ap.add_argument("--reg-max", type=int, default=32768, help="largest N for the registers schedule")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--dtype", choices=list(DTYPES), default="f32",
                    help="storage type of the per-element inputs, column parameters and float outputs")
    ap.add_argument("--inductor-exact-div", action="store_true",
                    help="set inductor's emulate_divison_rounding (IEEE fp32 '/'); not default mode")
    a = ap.parse_args(argv)
    names = list(SPECS) if a.workloads == "all" else [w.strip() for w in a.workloads.split(",") if w.strip()]
    a.impl_list = [s.strip() for s in a.impls.split(",") if s.strip()]
    try:
        a.width_list = [int(w) for w in a.widths.split(",") if w.strip()]
    except ValueError:
        ap.error(f"--widths takes comma-separated integers, got {a.widths!r}")
    for n in names:
        if n not in SPECS:
            ap.error(f"unknown workload {n!r} (known: {', '.join(SPECS)})")
    for i in a.impl_list:
        if i not in IMPLS:
            ap.error(f"unknown implementation {i!r} (known: {', '.join(IMPLS)})")
    if not a.width_list or min(a.width_list) < 1 or a.rows < 0:
        ap.error("--widths must be >= 1 and --rows >= 0")
    a.specs = [SPECS[n] for n in names]
    a.elem = DTYPES[a.dtype]
    return a


def main(argv) -> int:
    args = parse_args(argv[1:])
    if not torch.cuda.is_available():
        print("torch_baselines.py: torch sees no CUDA device; run it on the GPU machine", file=sys.stderr)
        return 2
    if args.inductor_exact_div:
        import torch._inductor.config as icfg
        if not hasattr(icfg, "emulate_divison_rounding"):
            print("torch_baselines.py: this torch has no inductor emulate_divison_rounding", file=sys.stderr)
            return 2
        icfg.emulate_divison_rounding = True

    doc = {
        "schema_version": 1, "kind": "sweep",
        "meta": {"argv": list(argv), "tool_version": "torch_baselines.py", "git_sha": git_sha(),
                 "utc_time": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")},
        "device": device_info(), "calibration": None, "predictions": [], "points": [], "copy_gbps": 0.0,
    }
    copy_gbps = copy_bandwidth(args)
    doc["copy_gbps"] = num(copy_gbps)
    dev = doc["device"]
    print(f"{dev['name']} ({dev['sm_count']} SMs), torch {torch.__version__}, triton {triton.__version__}: "
          f"copy_ {copy_gbps:.0f} GB/s (read+write)", flush=True)
    if args.json:
        write_atomically(args.json, doc)
    print(f"{'workload':<12} {'M':>6} {'N':>7} {'schedule':<14} {'ms':>10} {'GB/s':>9} {'%copy':>8}", flush=True)

    total = len(args.specs) * len(args.width_list) * len(args.impl_list)
    done, bad, t0 = 0, 0, time.monotonic()
    for si, spec in enumerate(args.specs):
        for wi, N in enumerate(args.width_list):
            M = args.rows or spec.default_rows
            gen = torch.Generator(device="cuda")
            gen.manual_seed(args.seed + si * len(args.width_list) + wi)
            try:
                inputs = make_inputs(spec, M, N, gen, args.elem)
                setup_error = None
            except Exception as exc:  # e.g. out of memory at a huge shape: every impl fails
                inputs, setup_error = None, "making inputs: " + short(exc)
            for impl in args.impl_list:
                if setup_error:
                    res = ("failed", setup_error, None, 0.0)
                else:
                    res = measure(spec, impl, inputs, M, N, args)
                pt = make_point(spec, M, N, impl, *res, copy_gbps, args.elem)
                doc["points"].append(pt)
                done += 1
                bad += pt["disposition"] in ("incorrect", "failed")
                if pt["disposition"] == "passed":
                    err = pt["max_rel_l2_error"]
                    print(f"{pt['workload']:<12} {M:>6} {N:>7} {impl:<14} {pt['time_ms']['median']:>10.4f} "
                          f"{pt['gbps']:>9.1f} {pt['pct_of_copy']:>7.1f}%  err "
                          f"{err if err is not None else float('inf'):.1e}  {pt['reason']}", flush=True)
                else:
                    print(f"{pt['workload']:<12} {M:>6} {N:>7} {impl:<14} {pt['disposition']}: {pt['reason']}",
                          flush=True)
                if args.json:
                    write_atomically(args.json, doc)  # nothing measured is lost
                el = time.monotonic() - t0
                print(f"[{done}/{total}] {el:.0f}s elapsed, ETA {el / done * (total - done):.0f}s", flush=True)
            del inputs
            torch.cuda.empty_cache()
    if bad:
        print(f"torch_baselines.py: {bad} point(s) were incorrect or failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
