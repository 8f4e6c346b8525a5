#pragma once
// Shared-memory throughput with many accesses in flight (paper Table II): every thread issues
// `unroll` independent 16-byte loads or stores per iteration, local (its own CTA's buffer) or
// remote (the buffer of rank (rank + 1) % P, so every SM sends one stream and receives one).
// cycles = clock64 on the accessing SM from the cluster barrier to the end of the CTA's loop.
#include "microbench/params.hpp"
#include "microbench/ptx.cuh"

namespace credit::microbench {

template <Access A>
__global__ void __launch_bounds__(ThroughputPolicy::threads, 1) throughput_kernel(CtaSample* out) {
  using T = ThroughputPolicy;
  constexpr bool remote = is_remote(A);
  constexpr std::uint32_t mask = T::buffer_bytes - 1;
  extern __shared__ uint4 buffer[];
  const std::uint32_t tid = threadIdx.x;
  for (std::uint32_t i = tid; i < T::buffer_bytes / 16; i += T::threads) buffer[i] = make_uint4(i, ~i, 3 * i, i ^ 0x5a5au);
  const std::uint32_t rank = cluster_rank();
  const std::uint32_t local = cta_addr(buffer);
  const std::uint32_t base = remote ? map_to_rank(local, (rank + 1) % cluster_size()) : local;
  cluster_sync();  // buffers initialised and every peer started

  static_assert(T::threads * T::unroll * 16 == T::buffer_bytes, "one iteration covers the buffer once");
  // ptxas may hoist or merge loads whose addresses it can prove equal across iterations (an
  // early version measured 3.7x the hardware's 128 B/cycle that way): every iteration shifts
  // its addresses by a run-time amount (16 B, read from blockDim so ptxas cannot see it).
  const std::uint32_t shift = 16u * (blockDim.y + blockDim.z - 1u);
  std::uint32_t acc = 0;
  const long long t0 = cycles_now();
  for (int it = 0; it < T::iters; ++it) {
    auto addr = [&](int u) {
      return base + (((std::uint32_t(u) * T::threads + tid) * 16u + std::uint32_t(it) * shift) & mask);
    };
    if constexpr (is_read(A)) {
      uint4 v[T::unroll];  // all loads issued before any result is used
#pragma unroll
      for (int u = 0; u < T::unroll; ++u) v[u] = load_v4<remote>(addr(u));
#pragma unroll
      for (int u = 0; u < T::unroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    } else {
#pragma unroll
      for (int u = 0; u < T::unroll; ++u) store_v4<remote>(addr(u), make_uint4(std::uint32_t(it), std::uint32_t(u), tid, rank));
    }
  }
  __syncthreads();  // every warp of this SM has finished its accesses
  const long long cycles = cycles_now() - t0;
  cluster_sync();  // peers keep their shared memory until every remote access is done
  if (tid == 0) out[blockIdx.x] = CtaSample{cycles, smid(), acc};
}

}  // namespace credit::microbench
