#pragma once
// Stage 0 over a slice arriving in shared memory: thread 0 puts the retained inputs in flight through the
// bulk copy engine, every thread accumulates each chunk as its mbarrier completes, and the scalar head and
// tail go through registers meanwhile.
#include "kernels/bulk_copy.cuh"
#include "kernels/element_partials.cuh"

namespace credit::kernels {

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

}  // namespace credit::kernels
