#pragma once
// Global-memory accesses with L2 cache policies: streaming output stores, loads that ask the L2 to keep
// lines read again (evict_last), and the A/B build options that choose them for the re-read passes.
#include <cstdint>

#include "core/build_options.hpp"

namespace credit::kernels {

// Two A/B build options, off (measured on one H200, 2026-12-01).
// CREDIT_REREAD_EVICT_LAST: re-read loads ask the L2 to keep their lines (within 2%, rmsnorm's
// global_reread 1.04-1.10x).
#ifndef CREDIT_REREAD_EVICT_LAST
#define CREDIT_REREAD_EVICT_LAST 0
#endif
// CREDIT_REREAD_REVERSE: passes over global memory alternate direction (global_reread up to 1.25x
// at 4096 x 32768-65536, partial 1.02-1.13x at 1M, the fastest kernel at a shape 0.99-1.05x: off
// while the time model's development data were measured without it).
#ifndef CREDIT_REREAD_REVERSE
#define CREDIT_REREAD_REVERSE 0
#endif
// Whether the pass-th read of a span from global memory (0: the first) walks it backwards.
constexpr bool reversed_pass(int pass) { return CREDIT_REREAD_REVERSE && (pass & 1); }

// One output group of four floats at p, stored with st.global.cs (evict-first in the L2): a plain store
// takes 0.999x the time over 270 points.
__device__ __forceinline__ void store_out4(float* p, const float4& v) { __stcs(reinterpret_cast<float4*>(p), v); }

// Read-only loads that ask the L2 to keep the line (evict_last): for data read again. The policy
// is made once per pass (createpolicy), not per load.
__device__ __forceinline__ std::uint64_t evict_last_policy() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ float4 load_evict_last(const float4* p, std::uint64_t policy) {
  float4 v;
  asm("ld.global.nc.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ float load_evict_last(const float* p, std::uint64_t policy) {
  float v;
  asm("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ uint4 load_evict_last(const uint4* p, std::uint64_t policy) {
  uint4 v;
  asm("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p), "l"(policy));
  return v;
}
__device__ __forceinline__ unsigned short load_evict_last(const unsigned short* p, std::uint64_t policy) {
  unsigned short v;
  asm("ld.global.nc.L2::cache_hint.u16 %0, [%1], %2;" : "=h"(v) : "l"(p), "l"(policy));
  return v;
}
template <class P>
__device__ __forceinline__ P load_evict_last(const P* p) { return load_evict_last(p, evict_last_policy()); }

// A 16-byte load of an input a later phase reads again.
template <class P>
__device__ __forceinline__ P load_read_again(const P* p) {
#if CREDIT_REREAD_EVICT_LAST
  return load_evict_last(p);
#else
  return __ldg(p);
#endif
}

}  // namespace credit::kernels
