#pragma once
// The phases every row-wise kernel is made of, generic over the workload declaration: stage 0
// over a slice arriving in shared memory through the bulk copy engine, later stages from global
// memory (the re-read schedule) or from the retained slice, and h applied over a span.
#include "core/operands.hpp"
#include "core/fast_math.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "kernels/bulk_copy.cuh"
#include "kernels/element_access.cuh"
#include "kernels/row_span.cuh"

namespace credit::kernels {

// Where a phase takes the retained inputs from.
enum class Source { Global, Shared };

// Two A/B build options, off (measured on one H200, 2026-12-01).
// CREDIT_REREAD_EVICT_LAST: re-read loads ask the L2 to keep their lines (within 2%, rmsnorm's
// global_reread 1.04-1.10x).
#ifndef CREDIT_REREAD_EVICT_LAST
#define CREDIT_REREAD_EVICT_LAST 0
#endif
// CREDIT_REREAD_REVERSE: passes over global memory alternate direction (global_reread up to 1.25x
// at 4096 x 32768-65536, partial 1.02-1.13x at 1M, the fastest kernel at a shape 0.99-1.05x: off
// while the time model's development data were measured without it).
#ifndef CREDIT_REREAD_REVERSE
#define CREDIT_REREAD_REVERSE 0
#endif
// Whether the pass-th read of a span from global memory (0: the first) walks it backwards.
constexpr bool reversed_pass(int pass) { return CREDIT_REREAD_REVERSE && (pass & 1); }

// One output group of four floats at p, stored with st.global.cs (evict-first in the L2): a plain store
// takes 0.999x the time over 270 points.
__device__ __forceinline__ void store_out4(float* p, const float4& v) { __stcs(reinterpret_cast<float4*>(p), v); }

// Read-only loads that ask the L2 to keep the line (evict_last): for data read again. The policy
// is made once per pass (createpolicy), not per load.
__device__ __forceinline__ std::uint64_t evict_last_policy() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ float4 load_evict_last(const float4* p, std::uint64_t policy) {
  float4 v;
  asm("ld.global.nc.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ float load_evict_last(const float* p, std::uint64_t policy) {
  float v;
  asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ uint4 load_evict_last(const uint4* p, std::uint64_t policy) {
  uint4 v;
  asm("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ unsigned short load_evict_last(const unsigned short* p, std::uint64_t policy) {
  unsigned short v;
  asm("ld.global.nc.L2::cache_hint.u16 %0, [%1], %2;" : "=h"(v) : "l"(p), "l"(policy));
  return v;
}
template <class P>
__device__ __forceinline__ P load_evict_last(const P* p) { return load_evict_last(p, evict_last_policy()); }

// A 16-byte load of an input a later phase reads again.
template <class P>
__device__ __forceinline__ P load_read_again(const P* p) {
#if CREDIT_REREAD_EVICT_LAST
  return load_evict_last(p);
#else
  return __ldg(p);
#endif
}

// One 16-byte group per input, as loaded (float4, or 16 raw bytes of a narrower type).
template <int R, class P = float4>
struct Vec {
  P x[R > 0 ? R : 1];
};

using Planes = PlanesT<float>;  // fp32 planes (PlanesOf<W> for a kernel instantiated in any element type)

template <class W>
constexpr int n_inputs = int(W::inputs.size());

// Stage l's per-thread partials: the identities, then one contribution per element folded in.
template <class W, int l>
__device__ __forceinline__ void init_partials(float (&acc)[W::stages[l].q]) {
#pragma unroll
  for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_identity(op_of<W>(stat_offset<W>(l) + j));
}

// Folds stage l's q values g (one element's contributions, or another span's partials) into acc.
template <class W, int l>
__device__ __forceinline__ void fold_partials(float (&acc)[W::stages[l].q], const float* g) {
#pragma unroll
  for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_apply(op_of<W>(stat_offset<W>(l) + j), acc[j], g[j]);
}

template <class W, int l>
__device__ __forceinline__ void add_contribution(float (&acc)[W::stages[l].q], const float* x,
                                                 const typename W::Ctx& ctx) {
  float g[W::stages[l].q];
  W::template contribute<l>(x, ctx, g);
  fold_partials<W, l>(acc, g);
}

// Four int8 outputs, integers in [-128, 127] (OutType::I8), packed in a word: adding kRoundMagic (core/fast_math.hpp)
// puts each one's two's complement in the low byte of the sum's bits, four full-rate adds and three byte permutes
// where four float-to-int8 conversions (F2I, a quarter of the rate) made quant_int8 compute-bound in bf16.
__device__ __forceinline__ unsigned int8x4_bits(const float* v) {
  const unsigned b0 = __float_as_uint(v[0] + kRoundMagic), b1 = __float_as_uint(v[1] + kRoundMagic);
  const unsigned b2 = __float_as_uint(v[2] + kRoundMagic), b3 = __float_as_uint(v[3] + kRoundMagic);
  return __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
}

// The outputs h produced for G consecutive elements starting at `at` (16-byte stores of the element type, G-byte
// for int8), and for one element.
template <class W>
__device__ __forceinline__ void store_group(const RowOperands& op, long long at,
                                            const float (&o)[int(W::outputs.size())][SpanOf<W>::group]) {
  using E = element_t<W>;
  constexpr int G = SpanOf<W>::group;
#pragma unroll
  for (int k = 0; k < int(W::outputs.size()); ++k) {
    if (output_is_f32<W>(k)) {  // folded: k is unrolled
      if constexpr (std::is_same_v<E, float>) {
        store_out4(static_cast<float*>(op.out[k]) + at, make_float4(o[k][0], o[k][1], o[k][2], o[k][3]));
      } else {
        auto* p = reinterpret_cast<uint4*>(static_cast<E*>(op.out[k]) + at);
        __stcs(p, pack<E>(o[k]));
      }
    } else {
      unsigned q[G / 4];
#pragma unroll
      for (int j = 0; j < G / 4; ++j) q[j] = int8x4_bits(o[k] + 4 * j);
      signed char* p = static_cast<signed char*>(op.out[k]) + at;
      if constexpr (G == 4) {
        *reinterpret_cast<unsigned*>(p) = q[0];
      } else {
        static_assert(G == 8);
        *reinterpret_cast<uint2*>(p) = make_uint2(q[0], q[1]);
      }
    }
  }
}
template <class W>
__device__ __forceinline__ void store_element(const RowOperands& op, long long at, const float* y) {
#pragma unroll
  for (int k = 0; k < int(W::outputs.size()); ++k) {
    if (output_is_f32<W>(k)) static_cast<element_t<W>*>(op.out[k])[at] = from_float<element_t<W>>(y[k]);
    else static_cast<signed char*>(op.out[k])[at] = static_cast<signed char>(y[k]);
  }
}

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

// Thread 0: puts the span's retained inputs in flight to the planes, chunk c on bars[c].
template <class W>
__device__ __forceinline__ void issue_slice_copies(const RowOperands& op, const SpanOf<W>& span, const PlanesOf<W>& pl,
                                                   std::uint64_t* bars, ChunkPlan plan) {
  constexpr unsigned rmask = retained_mask<W>();
  constexpr int R = popcount(rmask);
  const int groups = span.groups();
  for (int c = 0; c < plan.chunks; ++c) {
    const int g0 = c * plan.per, g1 = g0 + plan.per < groups ? g0 + plan.per : groups;
    const unsigned bytes = unsigned(g1 - g0) * 16u;
    mbarrier_arrive_expect_tx(&bars[c], bytes * R);
    const int i = span.group_elem(g0);
#pragma unroll
    for (int k = 0; k < n_inputs<W>; ++k)
      if ((rmask >> k) & 1u)
        bulk_copy_to_shared(pl.plane(retained_plane<W>(k)) + span.smem_index(i), in_of<W>(op, k) + span.base + i,
                            bytes, &bars[c]);
  }
}

// Every thread: stage 0's contributions of the span's scalar head and tail, read through registers and
// written to the planes beside the bulk copies.
template <class W>
__device__ __forceinline__ void load_and_accumulate_edges(const RowOperands& op, const SpanOf<W>& span, const PlanesOf<W>& pl,
                                                          const typename W::Ctx& ctx, float (&acc)[W::stages[0].q]) {
  constexpr int NI = n_inputs<W>;
  constexpr unsigned rmask = retained_mask<W>();
  if (int(threadIdx.x) < span.edge_count()) {
    const int i = span.edge_elem(threadIdx.x);
    float x[NI] = {};
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      if (!((rmask >> k) & 1u)) continue;
      const element_t<W> v = in_of<W>(op, k)[span.base + i];
      pl.plane(retained_plane<W>(k))[span.smem_index(i)] = v;
      x[k] = to_float(v);
    }
    add_contribution<W, 0>(acc, x, ctx);
  }
}

// Every thread: stage 0's contributions of the span's groups, each chunk taken as its mbarrier completes
// the phase of the given parity.
template <class W, int Threads>
__device__ __forceinline__ void accumulate_arriving_chunks(const SpanOf<W>& span, const PlanesOf<W>& pl, std::uint64_t* bars,
                                                           ChunkPlan plan, unsigned parity, const typename W::Ctx& ctx,
                                                           float (&acc)[W::stages[0].q]) {
  constexpr int NI = n_inputs<W>;
  constexpr unsigned rmask = retained_mask<W>();
  const int groups = span.groups();
  for (int c = 0; c < plan.chunks; ++c) {
    mbarrier_wait_parity(&bars[c], parity);
    const int g1 = (c + 1) * plan.per < groups ? (c + 1) * plan.per : groups;
    for (int g = c * plan.per + int(threadIdx.x); g < g1; g += Threads) {
      using E = element_t<W>;
      const int si = span.smem_index(span.group_elem(g));
      Pack<E> v[NI];
#pragma unroll
      for (int k = 0; k < NI; ++k)
        if ((rmask >> k) & 1u) v[k] = *reinterpret_cast<const Pack<E>*>(pl.plane(retained_plane<W>(k)) + si);
#pragma unroll
      for (int e = 0; e < SpanOf<W>::group; ++e) {
        float x[NI];
#pragma unroll
        for (int k = 0; k < NI; ++k) x[k] = lane<E>(v[k], e);
        add_contribution<W, 0>(acc, x, ctx);
      }
    }
  }
}

// Loads the span's retained inputs into shared memory with the bulk copy engine while
// accumulating stage 0 (the deposit of paper Eq. 8 overlapped with the input stream): thread 0
// puts every chunk in flight, every thread takes each chunk as its mbarrier completes.
// The scalar head and tail (rows not 16-byte aligned) go through registers meanwhile.
// `in_flight(acc)` runs once every chunk is in flight and before the first wait: the partial
// schedule streams the rest of its slice there, so its loads overlap the bulk copies.
template <class W, int Threads, class InFlight>
__device__ __forceinline__ void load_and_accumulate_stage0(const RowOperands& op, const SpanOf<W>& span,
                                                           const PlanesOf<W>& pl, std::uint64_t* bars,
                                                           const typename W::Ctx& ctx,
                                                           float (&acc)[W::stages[0].q],
                                                           const InFlight& in_flight) {
  const ChunkPlan plan = chunk_plan(span.groups());
  if (threadIdx.x == 0 && plan.chunks > 0) {
    for (int c = 0; c < plan.chunks; ++c) mbarrier_init(&bars[c], 1);
    mbarrier_init_fence();
    issue_slice_copies<W>(op, span, pl, bars, plan);
  }
  __syncthreads();  // the mbarriers are initialised before anyone waits on them
  init_partials<W, 0>(acc);
  load_and_accumulate_edges<W>(op, span, pl, ctx, acc);
  in_flight(acc);
  accumulate_arriving_chunks<W, Threads>(span, pl, bars, plan, 0u, ctx, acc);
}

// A load of a column parameter (layernorm's gamma, beta), which every row reads again. Where the
// launch says so (op.col_keep_l2: few CTAs per SM, gpu/schedules.cu) it asks the L2 to keep the line:
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
