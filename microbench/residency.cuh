#pragma once
// Clusters that actually run at once (calibrate): each CTA's first thread joins a running count,
// raises the peak it saw, spins long enough that the whole first wave has started, and leaves.
// A CTA of a later wave starts only after one has left, so the peak is the resident count: a
// check of the occupancy API's answer, which the time model's waves rest on (on the H200 the two
// agree at every P and CTAs per SM, 2026-12-01).
#include "microbench/ptx.cuh"

namespace credit::microbench {

__global__ void residency_kernel(long long cycles, unsigned* running, unsigned* peak) {
  if (threadIdx.x == 0) {
    const unsigned now = atomicAdd(running, 1u) + 1u;
    atomicMax(peak, now);
    const long long t0 = cycles_now();
    while (cycles_now() - t0 < cycles) {
    }
    atomicSub(running, 1u);
  }
}

}  // namespace credit::microbench
