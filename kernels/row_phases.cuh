#pragma once
// The phases every row-wise kernel is made of, generic over the workload declaration: stage 0
// over a slice arriving in shared memory through the bulk copy engine, later stages from global
// memory (the re-read schedule) or from the retained slice, and h applied over a span.
// Their building blocks: kernels/cache_policy_access.cuh (loads and stores with L2 policies),
// kernels/element_partials.cuh (per-element partials and outputs), kernels/bulk_stage0.cuh (stage 0 over
// the bulk copies).
#include "kernels/bulk_stage0.cuh"
#include "kernels/cache_policy_access.cuh"
#include "kernels/element_partials.cuh"

namespace credit::kernels {

// Where a phase takes the retained inputs from.
enum class Source { Global, Shared };

// Accumulates stage l's contributions over the span into acc (per-thread partials), reading
// the inputs from global memory (the re-read schedule) or from the retained planes.
template <class W, int l, Source S, int Threads, int U, bool Reverse = false>
__device__ __forceinline__ void accumulate_stage(const RowOperands& op, const SpanOf<W>& span,
                                                 const PlanesOf<W>& pl, const typename W::Ctx& ctx,
                                                 float (&acc)[W::stages[l].q]) {
  using E = element_t<W>;
  constexpr int G = SpanOf<W>::group;
  constexpr int NI = n_inputs<W>;
  constexpr int q = W::stages[l].q;
  constexpr int off = stat_offset<W>(l);
  // Shared-memory phases hold the retained inputs; global phases what the stage reads.
  constexpr unsigned mask = S == Source::Shared ? retained_mask<W>() : W::stages[l].reads;
  init_partials<W, l>(acc);
  auto add = [&](const float* v) { add_contribution<W, l>(acc, v, ctx); };
  auto load = [&](int g) {
    Vec<NI, Pack<E>> v;
    const int i = span.group_elem(g);
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((mask >> k) & 1u)) continue;
      if constexpr (S != Source::Global)
        v.x[k] = *reinterpret_cast<const Pack<E>*>(pl.plane(retained_plane<W>(k)) + span.smem_index(i));
      else  // read again by later stages: let L2 keep it
        v.x[k] = load_read_again(reinterpret_cast<const Pack<E>*>(in_of<W>(op, k) + span.base + i));
    }
    return v;
  };
  // The last stage may overwrite the retained input with its contribution (retains_contribution).
  constexpr bool keep = S == Source::Shared && retains_contribution<W>() && l == num_stages<W>() - 1;
  auto add_kept = [&](const float* v) {  // accumulates, and returns the contribution to keep
    float c[q];
    W::template contribute<l>(v, ctx, c);
    acc[0] = combine_apply(op_of<W>(off), acc[0], c[0]);
    return c[0];
  };
  auto use = [&](int g, const Vec<NI, Pack<E>>& v) {
    float4 kept;
#pragma unroll
    for (int e = 0; e < G; ++e) {
      float x[NI];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane<E>(v.x[k], e);
      if constexpr (keep) {
        set_lane(kept, e, add_kept(x));
      } else {
        add(x);
      }
    }
    if constexpr (keep) *reinterpret_cast<float4*>(pl.plane(0) + span.smem_index(span.group_elem(g))) = kept;
  };
  for_each_group<U, Threads, Reverse>(span.groups(), load, use);
  if (int(threadIdx.x) < span.edge_count()) {
    const int i = span.edge_elem(threadIdx.x);
    float x[NI] = {};
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((mask >> k) & 1u)) continue;
      x[k] = to_float(S != Source::Global ? pl.plane(retained_plane<W>(k))[span.smem_index(i)]
                                          : in_of<W>(op, k)[span.base + i]);
    }
    if constexpr (keep) {
      pl.plane(0)[span.smem_index(i)] = add_kept(x);
    } else {
      add(x);
    }
  }
}

// h from the contributions the last stage left in the retained plane (retains_contribution).
template <class W, int Threads, int U>
__device__ __forceinline__ void apply_kept_span(const RowOperands& op, const SpanOf<W>& span, const PlanesOf<W>& pl,
                                                const typename W::Ctx& ctx) {
  constexpr int NO = int(W::outputs.size());
  static_assert(NO == 1 && output_is_f32<W>(0), "kept contributions: one fp32 output");
  auto load = [&](int g) { return *reinterpret_cast<const float4*>(pl.plane(0) + span.smem_index(span.group_elem(g))); };
  auto use = [&](int g, const float4& v) {
    float4 o;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float y[NO];
      W::apply_contribution(lane_of(v, e), ctx, y);
      set_lane(o, e, y[0]);
    }
    store_out4(static_cast<float*>(op.out[0]) + span.base + span.group_elem(g), o);
  };
  for_each_group<U, Threads>(span.groups(), load, use);
  if (int(threadIdx.x) < span.edge_count()) {
    const int i = span.edge_elem(threadIdx.x);
    float y[NO];
    W::apply_contribution(pl.plane(0)[span.smem_index(i)], ctx, y);
    static_cast<float*>(op.out[0])[span.base + i] = y[0];
  }
}

// Seed 001's Fig. 6 controls: the retained planes reloaded from the inputs, or written to
// op.spill and read back, through registers into shared memory, then a CTA barrier.
enum class PlaneCopy { ReloadInputs, Spill, Unspill };

template <class W, PlaneCopy C, int Threads>
__device__ __forceinline__ void copy_planes(const RowOperands& op, const SpanOf<W>& span, const PlanesOf<W>& pl) {
  using E = element_t<W>;
  using P = Pack<E>;
  constexpr unsigned rmask = retained_mask<W>();
  const long long plane_elems = spill_plane_floats(op.rows, op.n);  // a spill plane holds every row (in E here)
  auto global_of = [&](int k, int i) -> E* {
    return C == PlaneCopy::ReloadInputs ? const_cast<E*>(in_of<W>(op, k)) + span.base + i
                                        : reinterpret_cast<E*>(op.spill) + retained_plane<W>(k) * plane_elems +
                                              span.base + i;
  };
#pragma unroll
  for (int k = 0; k < n_inputs<W>; ++k) {
    if (!((rmask >> k) & 1u)) continue;
    E* sp = pl.plane(retained_plane<W>(k));
    for (int g = threadIdx.x; g < span.groups(); g += Threads) {
      const int i = span.group_elem(g);
      auto* s4 = reinterpret_cast<P*>(sp + span.smem_index(i));
      auto* g4 = reinterpret_cast<P*>(global_of(k, i));
      if constexpr (C == PlaneCopy::Spill) __stcg(g4, *s4);
      else *s4 = __ldcg(g4);
    }
    if (int(threadIdx.x) < span.edge_count()) {
      const int i = span.edge_elem(threadIdx.x);
      if constexpr (C == PlaneCopy::Spill) __stcg(global_of(k, i), sp[span.smem_index(i)]);
      else sp[span.smem_index(i)] = __ldcg(global_of(k, i));
    }
  }
  __syncthreads();
}

// A load of a column parameter (layernorm's gamma, beta), which every row reads again. Where the
// launch says so (op.col_keep_l2: few CTAs per SM, gpu/launch/schedules.cu) it asks the L2 to keep the line:
// there the rows a wave streams push the column parameters out of the L2, and nothing else on the SM
// hides the longer trips (A/Bs on the H200, 2026-12-02). Through the L1 or around it,
// the time is the same.
template <class T>
__device__ __forceinline__ T load_col(const T* p, bool keep, std::uint64_t policy) {
  if (keep) return load_evict_last(p, policy);
  return __ldg(p);
}

// The inputs h reads from the planes: the retained ones (Shared).
template <class W, Source S>
inline constexpr unsigned apply_from_planes = S == Source::Shared ? retained_mask<W>() : 0u;

// h at the span's scalar head and tail elements (rows not 16-byte aligned), one per thread.
template <class W, Source S>
__device__ __forceinline__ void apply_edges(const RowOperands& op, const SpanOf<W>& span, const PlanesOf<W>& pl,
                                            const typename W::Ctx& ctx) {
  constexpr int NI = n_inputs<W>;
  constexpr int NC = int(W::col_params.size());
  constexpr int NO = int(W::outputs.size());
  constexpr unsigned from_smem = apply_from_planes<W, S>;
  if (int(threadIdx.x) >= span.edge_count()) return;
  const int i = span.edge_elem(threadIdx.x);
  const long long at = span.base + i;
  float x[NI > 0 ? NI : 1] = {}, c[NC > 0 ? NC : 1] = {}, y[NO];
#pragma unroll
  for (int k = 0; k < NI; ++k) {
    if (!((W::apply_reads >> k) & 1u)) continue;
    x[k] = to_float(((from_smem >> k) & 1u) ? pl.plane(retained_plane<W>(k))[span.smem_index(i)] : in_of<W>(op, k)[at]);
  }
#pragma unroll
  for (int k = 0; k < NC; ++k) c[k] = to_float(col_of<W>(op, k)[i]);
  W::apply(x, c, ctx, y);
  store_element<W>(op, at, y);
}

// Applies h over the span and writes the outputs. Retained inputs come from shared memory
// when S == Shared, every other input from global memory.
template <class W, Source S, int Threads, int U, bool Reverse = false>
__device__ __forceinline__ void apply_span(const RowOperands& op, const SpanOf<W>& span,
                                           const PlanesOf<W>& pl, const typename W::Ctx& ctx) {
  using E = element_t<W>;
  constexpr int G = SpanOf<W>::group;
  constexpr int NI = n_inputs<W>;
  constexpr int NC = int(W::col_params.size());
  constexpr int NO = int(W::outputs.size());
  constexpr unsigned amask = W::apply_reads;
  constexpr unsigned from_smem = apply_from_planes<W, S>;
  const bool col_vec = (op.n & (G - 1)) == 0;  // column vectors are 16-byte aligned only then
  const bool keep = op.col_keep_l2;
  const std::uint64_t policy = NC > 0 && keep ? evict_last_policy() : 0;
  struct In {
    Vec<NI, Pack<E>> in;
    Vec<NC, Pack<E>> col;
  };
  auto load = [&](int g) {
    In v;
    const int i = span.group_elem(g);
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((amask >> k) & 1u)) continue;
      if ((from_smem >> k) & 1u)
        v.in.x[k] = *reinterpret_cast<const Pack<E>*>(pl.plane(retained_plane<W>(k)) + span.smem_index(i));
      else
        v.in.x[k] = __ldcs(reinterpret_cast<const Pack<E>*>(in_of<W>(op, k) + span.base + i));
    }
#pragma unroll
    for (int k = 0; k < NC; ++k) {
      if (col_vec)
        v.col.x[k] = load_col(reinterpret_cast<const Pack<E>*>(col_of<W>(op, k) + i), keep, policy);
      else
        v.col.x[k] = gather_group(col_of<W>(op, k) + i, [&](const auto* q) { return load_col(q, keep, policy); });
    }
    return v;
  };
  auto use = [&](int g, const In& v) {
    const long long at = span.base + span.group_elem(g);
    float o[NO][G];
#pragma unroll
    for (int e = 0; e < G; ++e) {
      float x[NI], c[NC > 0 ? NC : 1], y[NO];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane<E>(v.in.x[k], e);
#pragma unroll
      for (int k = 0; k < NC; ++k) c[k] = lane<E>(v.col.x[k], e);
      W::apply(x, c, ctx, y);
#pragma unroll
      for (int k = 0; k < NO; ++k) o[k][e] = y[k];
    }
    store_group<W>(op, at, o);
  };
  for_each_group<U, Threads, Reverse>(span.groups(), load, use);
  apply_edges<W, S>(op, span, pl, ctx);
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
