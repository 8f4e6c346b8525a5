#pragma once
// How the CTAs that share a row exchange their partial statistics: a policy of the split-row
// kernel, so the staged, clustered (and later global-memory) schedules are one kernel.
//
// Slots: slots[stat * max_cluster + source_rank], one region per statistic of every stage,
// so no slot is written twice and the paper's second barrier per stage (slot reuse) is not
// needed: the protocol is an early relaxed arrive, one wait before the first remote store,
// and one release/acquire cluster barrier per stage (K = L + 1 barrier phases).
#include <cstdint>

#include "core/split.hpp"
#include "core/workload.hpp"

namespace credit::kernels {

// One CTA per row: its partial is already the row statistic.
struct LocalExchange {
  __device__ static int size() { return 1; }
  __device__ static int rank() { return 0; }
  __device__ static void begin() {}
  template <class W, int l>
  __device__ static void all_reduce(float (&)[W::stages[l].q], float*) {}
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

// Stores v into the same shared-memory location of CTA `rank` of this cluster (DSMEM).
__device__ __forceinline__ void store_remote(float* local, unsigned rank, float v) {
  const auto a = static_cast<std::uint32_t>(__cvta_generic_to_shared(local));
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(a), "r"(rank));
  asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(remote), "f"(v) : "memory");
}

// P CTAs of a thread-block cluster per row; replicated push into every peer's slots.
struct DsmemExchange {
  __device__ static int size() { return int(cluster_nctarank()); }
  __device__ static int rank() { return int(cluster_ctarank()); }
  // Arrive early: a CTA may store into a peer only after every CTA of the cluster started.
  __device__ static void begin() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }

  template <class W, int l>
  __device__ static void all_reduce(float (&part)[W::stages[l].q], float* slots) {
    constexpr int q = W::stages[l].q;
    constexpr int off = stat_offset<W>(l);
    constexpr int MC = SplitPolicy::max_cluster;
    const unsigned p = cluster_nctarank(), me = cluster_ctarank();
    if constexpr (l == 0) asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (threadIdx.x < p)
#pragma unroll
      for (int j = 0; j < q; ++j) store_remote(&slots[(off + j) * MC + me], threadIdx.x, part[j]);
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
#pragma unroll
    for (int j = 0; j < q; ++j) {
      float r = combine_identity(op_of<W>(off + j));
      for (unsigned c = 0; c < p; ++c) r = combine_apply(op_of<W>(off + j), r, slots[(off + j) * MC + c]);
      part[j] = r;
    }
  }
};

}  // namespace credit::kernels
