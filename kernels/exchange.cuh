#pragma once
// How the CTAs that share a row exchange their partial statistics: a policy of the split-row
// kernel, so the staged, clustered (and later global-memory) schedules are one kernel.
//
// Slots: slots[stat * max_cluster + source_rank], one region per statistic of every stage, so
// no slot is written twice and the paper's second barrier per stage (slot reuse) is not needed.
// DsmemExchange's protocol: each CTA initialises one mbarrier per stage expecting P q_l 4 bytes,
// arrives early on the cluster barrier (release) and waits on it (acquire) only before its
// first remote store, so every peer has started and initialised its mbarriers; then per stage
// every CTA pushes its q_l partials into every peer's slots with st.async, which counts the
// bytes on that peer's mbarrier, and waits on its own mbarrier alone. Every store into a CTA's
// shared memory is one it waits for, so it may exit as soon as its last wait returns.
// Barriers: one cluster barrier per row plus L mbarrier waits (the paper: K = 2L cluster barriers).
#include <cstdint>
#include <utility>

#include "core/operands.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "kernels/bulk_copy.cuh"

namespace credit::kernels {

// One CTA per row: its partial is already the row statistic.
// Every policy: size(op) CTAs per row, the launch's row(op, xbars) this CTA serves (every thread calls
// it once, before begin) and its rank(op, xbars) among the row's CTAs, begin<W>(op, xbars) once,
// all_reduce<W, l>(op, row, partials, slots, xbars) after each stage (partials in, statistics out).
// xbars: the exchange's shared-memory words (one mbarrier per stage).
struct LocalExchange {
  static constexpr int pressure = 0;  // registers it adds, in the units of min_blocks_per_sm
  static constexpr bool through_global = false;  // partials through global memory (megakernel)
  __device__ static int size(const RowOperands&) { return 1; }
  __device__ static long long row(const RowOperands&, std::uint64_t*) { return blockIdx.x; }
  __device__ static int rank(const RowOperands&, std::uint64_t* = nullptr) { return 0; }
  template <class W>
  __device__ static void begin(const RowOperands&, std::uint64_t*) {}
  template <class W, int l>
  __device__ static void all_reduce(const RowOperands&, long long, float (&)[W::stages[l].q], float*,
                                    std::uint64_t*) {}
};

__device__ __forceinline__ unsigned cluster_nctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned cluster_ctarank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// P CTAs of a thread-block cluster per row; replicated push into every peer's slots.
struct DsmemExchange {
  static constexpr int pressure = 0;
  static constexpr bool through_global = false;
  __device__ static int size(const RowOperands&) { return int(cluster_nctarank()); }
  __device__ static long long row(const RowOperands&, std::uint64_t*) { return blockIdx.x / cluster_nctarank(); }
  __device__ static int rank(const RowOperands&, std::uint64_t* = nullptr) { return int(cluster_ctarank()); }

  // xbars: one mbarrier per stage.
  template <class W>
  __device__ static void begin(const RowOperands&, std::uint64_t* xbars) {
    // Without a stage no CTA touches a peer: no mbarrier, and no cluster barrier to leave pending.
    if constexpr (num_stages<W>() > 0) {
      // Thread 0 initialises, then (after the warp is synchronised: racecheck reported the bf16 kernels' init and
      // expect_tx as a warp-level hazard) arms each stage's mbarrier for the P peers' pushes.
      if (threadIdx.x == 0)
        for (int l = 0; l < num_stages<W>(); ++l) mbarrier_init(&xbars[l], 1);
      __syncwarp();
      if (threadIdx.x == 0) {
        const unsigned p = cluster_nctarank();
        [&]<int... l>(std::integer_sequence<int, l...>) {
          (mbarrier_arrive_expect_tx(&xbars[l], p * unsigned(W::stages[l].q) * 4u), ...);
        }(std::make_integer_sequence<int, num_stages<W>()>{});
        mbarrier_init_fence();
      }
      asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    }
  }

  template <class W, int l>
  __device__ static void all_reduce(const RowOperands&, long long, float (&part)[W::stages[l].q], float* slots,
                                    std::uint64_t* xbars) {
    constexpr int q = W::stages[l].q;
    constexpr int off = stat_offset<W>(l);
    constexpr int MC = SplitPolicy::max_cluster;
    const unsigned p = cluster_nctarank(), me = cluster_ctarank();
    if constexpr (l == 0) asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (threadIdx.x < p)
#pragma unroll
      for (int j = 0; j < q; ++j) store_async_remote(&slots[(off + j) * MC + me], &xbars[l], threadIdx.x, part[j]);
    mbarrier_wait_parity(&xbars[l], 0);
#pragma unroll
    for (int j = 0; j < q; ++j) {
      // Unrolled over the largest cluster so that the P shared-memory loads are in flight at once.
      float r = combine_identity(op_of<W>(off + j));
#pragma unroll
      for (unsigned c = 0; c < unsigned(MC); ++c)
        if (c < p) r = combine_apply(op_of<W>(off + j), r, slots[(off + j) * MC + c]);
      part[j] = r;
    }
  }
};

}  // namespace credit::kernels
