#pragma once
// The PTX the microbenchmarks use: SM id, cluster rank, DSMEM address mapping, 32-bit shared
// addresses for local (shared::cta) and remote (shared::cluster) loads and stores, the cluster
// barrier, and the SM cycle counter. All asm is volatile so none of it is merged or hoisted.
#include <cstdint>

namespace credit::microbench {

__device__ __forceinline__ std::uint32_t smid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ std::uint32_t cluster_size() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
  return r;
}

// "memory": the compiler keeps every shared access on its side of the clock reads.
__device__ __forceinline__ long long cycles_now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ std::uint32_t cta_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// The shared::cluster address of CTA `rank`'s copy of the shared::cta address `a`.
__device__ __forceinline__ std::uint32_t map_to_rank(std::uint32_t a, std::uint32_t rank) {
  std::uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}

// Release/acquire: stores before the barrier are visible to every CTA of the cluster after it.
// Every thread of every CTA must call it (.aligned).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

template <bool kRemote>
__device__ __forceinline__ std::uint32_t load_u32(std::uint32_t a) {
  std::uint32_t v;
  if constexpr (kRemote)
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  else
    asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

template <bool kRemote>
__device__ __forceinline__ void store_u32(std::uint32_t a, std::uint32_t v) {
  if constexpr (kRemote)
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  else
    asm volatile("st.shared::cta.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

template <bool kRemote>
__device__ __forceinline__ uint4 load_v4(std::uint32_t a) {
  uint4 v;
  if constexpr (kRemote)
    asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a) : "memory");
  else
    asm volatile("ld.shared::cta.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a) : "memory");
  return v;
}

template <bool kRemote>
__device__ __forceinline__ void store_v4(std::uint32_t a, uint4 v) {
  if constexpr (kRemote)
    asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w) : "memory");
  else
    asm volatile("st.shared::cta.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w) : "memory");
}

}  // namespace credit::microbench
