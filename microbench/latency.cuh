#pragma once
// Load latency by pointer chase (paper Table II): in a 2-CTA cluster, thread 0 of rank 0
// follows a ring in which every word holds the address of the next, so each load waits for
// the one before. Local: the ring is in rank 0's own shared memory (ld.shared::cta). Remote:
// rank 0 writes the ring into rank 1's shared memory through its own mapa'd base, then chases
// it with ld.shared::cluster. cycles = clock64 over `steps` loads on rank 0's SM.
#include "microbench/params.hpp"
#include "microbench/ptx.cuh"

namespace credit::microbench {

template <bool kRemote>
__global__ void __launch_bounds__(ChasePolicy::threads) chase_kernel(CtaSample* out) {
  using C = ChasePolicy;
  extern __shared__ std::uint32_t ring_words[];
  const std::uint32_t rank = cluster_rank();
  const std::uint32_t local = cta_addr(ring_words);
  // The chaser's view of the ring: its own words, or rank 1's through the cluster window.
  const std::uint32_t ring = kRemote ? map_to_rank(local, 1) : local;
  cluster_sync();  // every CTA has started before any of its shared memory is written remotely
  if (rank == 0)
    for (int i = threadIdx.x; i < C::words; i += C::threads)
      store_u32<kRemote>(ring + 4u * i, ring + 4u * ((i + C::stride) % C::words));
  cluster_sync();  // the ring is complete and visible to the chaser

  std::uint32_t a = ring;
  long long cycles = 0;
  if (rank == 0 && threadIdx.x == 0) {
    for (int i = 0; i < C::warm; ++i) a = load_u32<kRemote>(a);
    const long long t0 = cycles_now();
    for (int i = 0; i < C::steps; i += C::unroll) {
#pragma unroll
      for (int u = 0; u < C::unroll; ++u) a = load_u32<kRemote>(a);
    }
    cycles = cycles_now() - t0;
  }
  cluster_sync();  // rank 1 keeps its shared memory until the chase is over
  if (threadIdx.x == 0) out[blockIdx.x] = CtaSample{cycles, smid(), a};
}

}  // namespace credit::microbench
