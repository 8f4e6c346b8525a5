#pragma once
// The SM clock under load: every CTA spins on clock64 for `cycles`; the host divides the
// cycle difference of a long and a short spin by the difference of their event times, which
// cancels the launch overhead both share.
#include "microbench/ptx.cuh"

namespace credit::microbench {

__global__ void clock_spin_kernel(long long cycles, long long* spun) {
  const long long t0 = cycles_now();
  long long t = t0;
  while (t - t0 < cycles) t = cycles_now();
  if (blockIdx.x == 0 && threadIdx.x == 0) *spun = t - t0;
}

}  // namespace credit::microbench
