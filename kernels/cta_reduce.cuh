#pragma once
// CTA-wide all-reduce of q statistics: warp shuffles, then one shared-memory round after which
// every thread holds the result (no second barrier, no broadcast).
#include "core/workload.hpp"

// CTAs of at least this many warps combine the warps' partials with one read per lane and a
// butterfly of shuffles (log2(warps) reads and combines); smaller CTAs have every thread combine
// all of them in order, a shorter chain there. A/B against the in-order combine at every width
// (one machine, register and staged kernels, M = 256 / 1024 / 4096): 1024
// threads (32 warps) 1.04x faster at N = 16384, 512 x 4 1.00-1.03x at 8192, 512 x 8 +-1%, and
// 8 warps 0.97-0.98x at N = 2048 (a tree over the same reads: +-2%).
namespace credit::kernels {

inline constexpr int kCtaButterflyWarps = 16;

template <class W, int l, int Warps>
__device__ __forceinline__ void cta_allreduce(float (&acc)[W::stages[l].q], float* warp_buf) {
  constexpr int q = W::stages[l].q;
  constexpr int off = stat_offset<W>(l);
#pragma unroll
  for (int j = 0; j < q; ++j)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      acc[j] = combine_apply(op_of<W>(off + j), acc[j], __shfl_xor_sync(0xffffffffu, acc[j], o));
  const int warp = threadIdx.x >> 5;
  if ((threadIdx.x & 31) == 0)
#pragma unroll
    for (int j = 0; j < q; ++j) warp_buf[warp * q + j] = acc[j];
  __syncthreads();
  static_assert((Warps & (Warps - 1)) == 0 && Warps <= 32, "a power-of-two count of warps");
#pragma unroll
  for (int j = 0; j < q; ++j) {
    if constexpr (Warps >= kCtaButterflyWarps) {
      // Partners add the same two values, so every lane of every warp ends with the same bits.
      float r = warp_buf[(threadIdx.x & (Warps - 1)) * q + j];
#pragma unroll
      for (int o = Warps / 2; o > 0; o >>= 1) r = combine_apply(op_of<W>(off + j), r, __shfl_xor_sync(0xffffffffu, r, o));
      acc[j] = r;
    } else {
      float r = combine_identity(op_of<W>(off + j));
#pragma unroll
      for (int w = 0; w < Warps; ++w) r = combine_apply(op_of<W>(off + j), r, warp_buf[w * q + j]);
      acc[j] = r;
    }
  }
}

}  // namespace credit::kernels
