#pragma once
// The partial kernels' streamed part through a ring of bulk copies (CREDIT_PARTIAL_RING, core/split.hpp):
// each pass over the part of the slice a CTA does not keep (every stage, then h) is cut into chunks of
// PartialRing::groups 16-byte groups; thread 0 puts the chunks of the planes the pass reads in flight on
// the copy engine, PartialRing::slots chunks ahead, each slot completing on its own mbarrier, and every
// thread consumes a chunk from shared memory as it lands. A slot is refilled after a CTA barrier, or
// (PartialRing::warp_release) once every warp has arrived on its second mbarrier, having read it. The
// first chunks of the next pass are issued before the CTA waits at its exchange, so the wait overlaps
// them. The span's unaligned head and tail elements stay with the caller (plain loads).
#include <cstdint>

#include "kernels/bulk_copy.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

template <class W>
struct StreamRing {
  static constexpr int R = popcount(retained_mask<W>());
  static constexpr int S = PartialRing::slots;
  static constexpr int G = PartialRing::groups;
  float* data;           // S slots of R planes of 4 G floats
  std::uint64_t* full;   // per slot: the copies landed (the producer's arrival and the bytes)
  std::uint64_t* empty;  // per slot: every warp has read it
  unsigned uses = 0;     // chunks consumed so far, the same in every thread: slot uses % S, parity (uses / S) & 1

  // Carved from `at` (16-byte aligned up); PartialRing::bytes(b_keep) covers it.
  __device__ explicit StreamRing(void* at) {
    const auto a = (reinterpret_cast<std::uintptr_t>(at) + 15) & ~std::uintptr_t(15);
    data = reinterpret_cast<float*>(a);
    full = reinterpret_cast<std::uint64_t*>(data + S * R * 4 * G);
    empty = full + S;
  }
  // Thread 0, before the CTA barrier that precedes the first wait.
  __device__ void init() const {
    for (int s = 0; s < S; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&empty[s], SplitPolicy::warps);
    }
    mbarrier_init_fence();
  }
  __device__ Planes slot(unsigned use) const { return Planes{data + int(use % S) * R * 4 * G, 4 * G}; }
  static __device__ int chunks(const RowSpan& rest) { return (rest.groups() + G - 1) / G; }

  // Thread 0: chunk j of a pass reading the inputs in Mask (retained ones), into the slot of use `use`.
  // Every warp has read the slot's previous contents (its empty mbarrier, or a CTA barrier since); the
  // proxy fence orders those reads before the copy engine's writes.
  template <unsigned Mask>
  __device__ void issue(const RowOperands& op, const RowSpan& rest, int j, unsigned use) const {
    static_assert((Mask & ~retained_mask<W>()) == 0, "the ring holds retained inputs only");
    const int g0 = j * G, g1 = g0 + G < rest.groups() ? g0 + G : rest.groups();
    const unsigned bytes = unsigned(g1 - g0) * 16u;
    std::uint64_t* bar = &full[use % S];
    const Planes pl = slot(use);
    const int i = rest.group_elem(g0);
    fence_proxy_async_shared();
    mbarrier_arrive_expect_tx(bar, bytes * unsigned(popcount(Mask)));
#pragma unroll
    for (int k = 0; k < n_inputs<W>; ++k)
      if ((Mask >> k) & 1u) bulk_copy_to_shared(pl.plane(retained_plane<W>(k)), op.in[k] + rest.base + i, bytes, bar);
  }
  // Thread 0: the first chunks of the next pass (every slot free: a CTA barrier since the last pass).
  template <unsigned Mask>
  __device__ void prime(const RowOperands& op, const RowSpan& rest) const {
    const int n = chunks(rest);
    for (int j = 0; j < S && j < n; ++j) issue<Mask>(op, rest, j, uses + unsigned(j));
  }
  // Every thread: consume(chunk, planes) for each chunk of a primed pass, in order; the chunk is a span
  // of whole groups whose element i sits at planes.plane(r)[i - chunk.lo]. The caller's next CTA barrier
  // (the stage's reduction) frees every slot for the next pass's prime.
  template <unsigned Mask, class Consume>
  __device__ void pass(const RowOperands& op, const RowSpan& rest, Consume&& consume) {
    const int n = chunks(rest);
    for (int j = 0; j < n; ++j) {
      const unsigned use = uses + unsigned(j);
      mbarrier_wait_parity(&full[use % S], (use / S) & 1u);
      const int g0 = j * G, g1 = g0 + G < rest.groups() ? g0 + G : rest.groups();
      const int lo = rest.group_elem(g0);
      consume(RowSpan(rest.base, lo, lo + 4 * (g1 - g0)), slot(use));
      if constexpr (PartialRing::warp_release) {
        __syncwarp();
        if (threadIdx.x % 32 == 0) mbarrier_arrive(&empty[use % S]);
        if (threadIdx.x == 0 && j + S < n) {
          mbarrier_wait_parity(&empty[use % S], (use / S) & 1u);
          issue<Mask>(op, rest, j + S, use + unsigned(S));
        }
      } else {
        __syncthreads();
        if (threadIdx.x == 0 && j + S < n) issue<Mask>(op, rest, j + S, use + unsigned(S));
      }
    }
    uses += unsigned(n);
  }
};

// Stage l's partials over the streamed part through the ring (primed with the stage's reads), folded
// into acc; the head and tail elements by plain loads.
template <class W, int l>
__device__ __forceinline__ void accumulate_ring(const RowOperands& op, const RowSpan& rest, StreamRing<W>& ring,
                                                const typename W::Ctx& ctx, float (&acc)[W::stages[l].q]) {
  ring.template pass<W::stages[l].reads>(op, rest, [&](const RowSpan& chunk, const Planes& pl) {
    float more[W::stages[l].q];
    accumulate_stage<W, l, Source::Ring, SplitPolicy::threads, SplitPolicy::shared_unroll>(op, chunk, pl, ctx, more);
    fold_partials<W, l>(acc, more);
  });
  if (int(threadIdx.x) < rest.edge_count()) {
    const int i = rest.edge_elem(threadIdx.x);
    float x[n_inputs<W> > 0 ? n_inputs<W> : 1] = {};
#pragma unroll
    for (int k = 0; k < n_inputs<W>; ++k)
      if ((W::stages[l].reads >> k) & 1u) x[k] = op.in[k][rest.base + i];
    add_contribution<W, l>(acc, x, ctx);
  }
}

// What the ring holds for h over the streamed part: the retained inputs h reads (the others come from
// global memory in apply_span).
template <class W>
inline constexpr unsigned ring_apply_mask = W::apply_reads & retained_mask<W>();

// h over the streamed part through the ring (primed with ring_apply_mask); the head and tail by plain loads.
template <class W>
__device__ __forceinline__ void apply_ring(const RowOperands& op, const RowSpan& rest, StreamRing<W>& ring,
                                           const typename W::Ctx& ctx) {
  ring.template pass<ring_apply_mask<W>>(op, rest, [&](const RowSpan& chunk, const Planes& pl) {
    apply_span<W, Source::Ring, SplitPolicy::threads, SplitPolicy::kept_apply_unroll(int(W::col_params.size()))>(
        op, chunk, pl, ctx);
  });
  apply_edges<W, Source::Global>(op, rest, Planes{}, ctx);
}

}  // namespace credit::kernels
