#pragma once
// The phases every row-wise kernel is made of, generic over the workload declaration:
// accumulate one stage's statistics over a span (from global memory, depositing into shared
// memory on the way, or from shared memory), and apply h over a span.
#include "core/operands.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "kernels/row_span.cuh"

namespace credit::kernels {

// Where a phase takes the retained inputs from.
enum class Source { Global, GlobalDeposit, Shared };

template <int R>
struct Vec {
  float4 x[R > 0 ? R : 1];
};

// Retained inputs live in planes of shared memory, one plane per retained input.
struct Planes {
  float* base;
  int stride;  // floats per plane
  __device__ float* plane(int r) const { return base + r * stride; }
};

template <class W>
constexpr int n_inputs = int(W::inputs.size());

// Accumulates stage l's contributions over the span into acc (per-thread partials).
template <class W, int l, Source S, int Threads, int U>
__device__ __forceinline__ void accumulate_stage(const RowOperands& op, const RowSpan& span,
                                                 const Planes& pl, const typename W::Ctx& ctx,
                                                 float (&acc)[W::stages[l].q]) {
  constexpr int NI = n_inputs<W>;
  constexpr int q = W::stages[l].q;
  constexpr int off = stat_offset<W>(l);
  // Shared-memory phases hold the retained inputs; global phases read what the stage reads.
  constexpr unsigned mask = S == Source::Global ? W::stages[l].reads : retained_mask<W>();
  constexpr unsigned rmask = retained_mask<W>();
#pragma unroll
  for (int j = 0; j < q; ++j) acc[j] = combine_identity(op_of<W>(off + j));
  auto add = [&](const float* v) {
    float g[q];
    W::template contribute<l>(v, ctx, g);
#pragma unroll
    for (int j = 0; j < q; ++j) acc[j] = combine_apply(op_of<W>(off + j), acc[j], g[j]);
  };
  auto load = [&](int g) {
    Vec<NI> v;
    const int i = span.group_elem(g);
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((mask >> k) & 1u)) continue;
      if constexpr (S == Source::Shared)
        v.x[k] = *reinterpret_cast<const float4*>(pl.plane(retained_plane<W>(k)) + span.smem_index(i));
      else if constexpr (S == Source::Global)  // re-read later: let L2 keep it
        v.x[k] = __ldg(reinterpret_cast<const float4*>(op.in[k] + span.base + i));
      else  // read once: evict first
        v.x[k] = __ldcs(reinterpret_cast<const float4*>(op.in[k] + span.base + i));
    }
    return v;
  };
  auto use = [&](int g, const Vec<NI>& v) {
    if constexpr (S == Source::GlobalDeposit) {
      const int si = span.smem_index(span.group_elem(g));
#pragma unroll
      for (int k = 0; k < NI; ++k)
        if ((rmask >> k) & 1u)
          *reinterpret_cast<float4*>(pl.plane(retained_plane<W>(k)) + si) = v.x[k];
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float x[NI];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane_of(v.x[k], e);
      add(x);
    }
  };
  for_each_group<U, Threads>(span.groups(), load, use);
  if (int(threadIdx.x) < span.edge_count()) {
    const int i = span.edge_elem(threadIdx.x);
    float x[NI] = {};
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((mask >> k) & 1u)) continue;
      if constexpr (S == Source::Shared) {
        x[k] = pl.plane(retained_plane<W>(k))[span.smem_index(i)];
      } else {
        x[k] = op.in[k][span.base + i];
        if constexpr (S == Source::GlobalDeposit) pl.plane(retained_plane<W>(k))[span.smem_index(i)] = x[k];
      }
    }
    add(x);
  }
}

// Applies h over the span and writes the outputs. Retained inputs come from shared memory
// when S == Shared, every other input from global memory.
template <class W, Source S, int Threads, int U>
__device__ __forceinline__ void apply_span(const RowOperands& op, const RowSpan& span,
                                           const Planes& pl, const typename W::Ctx& ctx) {
  constexpr int NI = n_inputs<W>;
  constexpr int NC = int(W::col_params.size());
  constexpr int NO = int(W::outputs.size());
  constexpr unsigned amask = W::apply_reads;
  constexpr unsigned from_smem = S == Source::Shared ? retained_mask<W>() : 0u;
  const bool col_vec = (op.n & 3) == 0;  // column vectors are 16-byte aligned only then
  struct In {
    Vec<NI> in;
    Vec<NC> col;
  };
  auto load = [&](int g) {
    In v;
    const int i = span.group_elem(g);
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((amask >> k) & 1u)) continue;
      if ((from_smem >> k) & 1u)
        v.in.x[k] = *reinterpret_cast<const float4*>(pl.plane(retained_plane<W>(k)) + span.smem_index(i));
      else
        v.in.x[k] = __ldcs(reinterpret_cast<const float4*>(op.in[k] + span.base + i));
    }
#pragma unroll
    for (int k = 0; k < NC; ++k) {
      if (col_vec) {
        v.col.x[k] = __ldg(reinterpret_cast<const float4*>(op.col[k] + i));
      } else {
        v.col.x[k] = make_float4(__ldg(op.col[k] + i), __ldg(op.col[k] + i + 1),
                                 __ldg(op.col[k] + i + 2), __ldg(op.col[k] + i + 3));
      }
    }
    return v;
  };
  auto use = [&](int g, const In& v) {
    const long long at = span.base + span.group_elem(g);
    float4 o[NO];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float x[NI], c[NC > 0 ? NC : 1], y[NO];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane_of(v.in.x[k], e);
#pragma unroll
      for (int k = 0; k < NC; ++k) c[k] = lane_of(v.col.x[k], e);
      W::apply(x, c, ctx, y);
#pragma unroll
      for (int k = 0; k < NO; ++k) set_lane(o[k], e, y[k]);
    }
#pragma unroll
    for (int k = 0; k < NO; ++k) {
      if (output_is_f32<W>(k)) {  // folded: k is unrolled
        __stcs(reinterpret_cast<float4*>(static_cast<float*>(op.out[k]) + at), o[k]);
      } else {
        const char4 q = make_char4(static_cast<signed char>(o[k].x), static_cast<signed char>(o[k].y),
                                   static_cast<signed char>(o[k].z), static_cast<signed char>(o[k].w));
        *reinterpret_cast<char4*>(static_cast<signed char*>(op.out[k]) + at) = q;
      }
    }
  };
  for_each_group<U, Threads>(span.groups(), load, use);
  if (int(threadIdx.x) < span.edge_count()) {
    const int i = span.edge_elem(threadIdx.x);
    const long long at = span.base + i;
    float x[NI] = {}, c[NC > 0 ? NC : 1] = {}, y[NO];
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((amask >> k) & 1u)) continue;
      x[k] = ((from_smem >> k) & 1u) ? pl.plane(retained_plane<W>(k))[span.smem_index(i)] : op.in[k][at];
    }
#pragma unroll
    for (int k = 0; k < NC; ++k) c[k] = op.col[k][i];
    W::apply(x, c, ctx, y);
#pragma unroll
    for (int k = 0; k < NO; ++k) {
      if (output_is_f32<W>(k)) static_cast<float*>(op.out[k])[at] = y[k];
      else static_cast<signed char*>(op.out[k])[at] = static_cast<signed char>(y[k]);
    }
  }
}

// Per-row scalar inputs, read by every thread (a broadcast load) before the stages finish.
template <class W>
__device__ __forceinline__ void load_row_params(const RowOperands& op, long long row, float* rowp) {
#pragma unroll
  for (int k = 0; k < int(W::row_params.size()); ++k) rowp[k] = __ldg(op.row_in[k] + row);
}

template <class W>
__device__ __forceinline__ void store_row_outputs(const RowOperands& op, long long row,
                                                  const typename W::Ctx& ctx) {
  if constexpr (W::row_outputs.size() > 0) {
    float ro[W::row_outputs.size()];
    W::row_out(ctx, ro);
#pragma unroll
    for (int k = 0; k < int(W::row_outputs.size()); ++k) op.row_out[k][row] = ro[k];
  }
}

}  // namespace credit::kernels
