#pragma once
// CTA-wide all-reduce of q statistics: warp shuffles, then one shared-memory round in which
// every thread combines all warps' partials itself (no second barrier, no broadcast).
#include "core/workload.hpp"

// How the warps' partials are combined: 0 in order by every thread, 1 as a tree by every thread
// (the same reads, a chain of log2(warps) instead of warps), 2 one read per lane and a butterfly
// of shuffles (log2(warps) reads and combines instead of warps). A build option for A/B runs.
#ifndef CREDIT_CTA_REDUCE
#define CREDIT_CTA_REDUCE 0
#endif

namespace credit::kernels {

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
    if constexpr (CREDIT_CTA_REDUCE == 2 && Warps > 1) {  // one read per thread, then a butterfly
      // Partners add the same two values, so every lane of every warp ends with the same bits.
      float r = warp_buf[(threadIdx.x & (Warps - 1)) * q + j];
#pragma unroll
      for (int o = Warps / 2; o > 0; o >>= 1) r = combine_apply(op_of<W>(off + j), r, __shfl_xor_sync(0xffffffffu, r, o));
      acc[j] = r;
    } else if constexpr (CREDIT_CTA_REDUCE == 1) {  // every warp's partial, combined as a tree
      float v[Warps];
#pragma unroll
      for (int w = 0; w < Warps; ++w) v[w] = warp_buf[w * q + j];
#pragma unroll
      for (int s = 1; s < Warps; s *= 2)
#pragma unroll
        for (int w = 0; w + s < Warps; w += 2 * s) v[w] = combine_apply(op_of<W>(off + j), v[w], v[w + s]);
      acc[j] = v[0];
    } else {  // every warp's partial, combined in order
      float r = combine_identity(op_of<W>(off + j));
#pragma unroll
      for (int w = 0; w < Warps; ++w) r = combine_apply(op_of<W>(off + j), r, warp_buf[w * q + j]);
      acc[j] = r;
    }
  }
}

}  // namespace credit::kernels
