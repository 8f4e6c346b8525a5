#pragma once
// CTA-wide all-reduce of q statistics: warp shuffles, then one shared-memory round in which
// every thread combines all warps' partials itself (no second barrier, no broadcast).
#include "core/workload.hpp"

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
#pragma unroll
  for (int j = 0; j < q; ++j) {
    float r = combine_identity(op_of<W>(off + j));
#pragma unroll
    for (int w = 0; w < Warps; ++w) r = combine_apply(op_of<W>(off + j), r, warp_buf[w * q + j]);
    acc[j] = r;
  }
}

}  // namespace credit::kernels
