#pragma once
// Walking a span [lo, hi) of one row with 16-byte accesses: a scalar head up to the first
// 16-byte boundary, whole float4 groups, and a scalar tail. Rows of any width N work, also
// when N is not a multiple of 4 (then row starts are not 16-byte aligned).
#include <cuda_runtime.h>

namespace credit::kernels {

struct RowSpan {
  long long base;  // element index of the row start in the [rows x n] tensors
  int lo, hi;      // the span, in row coordinates
  int ia, ib;      // [ia, ib): whole 16-byte groups
  int off;         // misalignment of lo: shared-memory index of element i is i - lo + off

  __device__ RowSpan(long long base_, int lo_, int hi_) : base(base_), lo(lo_), hi(hi_) {
    off = int((base + lo) & 3);
    const int head = (4 - off) & 3;
    ia = lo + head < hi ? lo + head : hi;
    ib = ia + ((hi - ia) & ~3);
  }
  __device__ int groups() const { return (ib - ia) >> 2; }
  __device__ int edge_count() const { return (ia - lo) + (hi - ib); }
  // The t-th scalar element (head first, then tail), t < edge_count().
  __device__ int edge_elem(int t) const { return t < ia - lo ? lo + t : ib + (t - (ia - lo)); }
  __device__ int group_elem(int g) const { return ia + 4 * g; }
  __device__ int smem_index(int i) const { return i - lo + off; }
};

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
