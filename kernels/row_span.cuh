#pragma once
// Walking a span of one row (credit::RowSpan, core/row_span.hpp, which the kernels find from the enclosing
// namespace) with 16-byte accesses on the device: the lanes of a float4, and the loop over a span's groups
// with several loads in flight per thread.
#include <cuda_runtime.h>

#include "core/row_span.hpp"

namespace credit::kernels {

__device__ __forceinline__ float lane_of(const float4& v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

__device__ __forceinline__ void set_lane(float4& v, int e, float x) {
  if (e == 0) v.x = x;
  else if (e == 1) v.y = x;
  else if (e == 2) v.z = x;
  else v.w = x;
}

// Calls use(g, loaded) for every group g = threadIdx.x + k * blockDim.x < groups, issuing U
// groups' loads before the first use so that several 16-byte loads are in flight per thread.
// Reverse walks the groups from the last one (a warp's 16-byte accesses stay contiguous): a pass
// reading again what the previous pass read forward starts where that one ended, on the lines the
// L2 still holds (CREDIT_REREAD_REVERSE).
template <int U, int Threads, bool Reverse = false, class Load, class Use>
__device__ __forceinline__ void for_each_group(int groups, Load&& load, Use&& use) {
  auto at = [groups](int g) { return Reverse ? groups - 1 - g : g; };
  for (int g0 = threadIdx.x; g0 < groups; g0 += U * Threads) {
    decltype(load(0)) v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (g0 + u * Threads < groups) v[u] = load(at(g0 + u * Threads));
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (g0 + u * Threads < groups) use(at(g0 + u * Threads), v[u]);
  }
}

}  // namespace credit::kernels
