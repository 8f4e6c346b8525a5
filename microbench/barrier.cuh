#pragma once
// Cluster barrier latency (paper Table II): every thread of every CTA of the cluster runs
// barrier.cluster.arrive.release + wait.acquire `iters` times; cycles = clock64 on each SM.
#include "microbench/params.hpp"
#include "microbench/ptx.cuh"

namespace credit::microbench {

__global__ void __launch_bounds__(BarrierPolicy::threads) cluster_barrier_kernel(CtaSample* out) {
  cluster_sync();  // start together: the first timed barrier does not wait for a late launch
  const long long t0 = cycles_now();
  for (int i = 0; i < BarrierPolicy::iters; ++i) cluster_sync();
  const long long cycles = cycles_now() - t0;
  if (threadIdx.x == 0) out[blockIdx.x] = CtaSample{cycles, smid(), 0};
}

}  // namespace credit::microbench
