#pragma once
// The GPU's global nanosecond timer (%globaltimer), the one clock every SM reads alike: the phase
// timelines' stamps and split_global's bounded barrier wait.

namespace credit::kernels {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace credit::kernels
