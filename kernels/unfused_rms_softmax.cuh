#pragma once
// Seed 001's deliberately unfused baseline for rms_softmax: 9 kernels, every intermediate in
// global memory. K1 squares, K2 tile sums of the squares, K3 row inverse RMS, K4 tile maxima,
// K5 row maxima, K6 exponentials, K7 tile sums of the exponentials, K8 row sums, K9 normalise.
// Tiles are the split-row slices (slice_of), P per row, one CTA each. x and y in fp32, bf16 or fp16.
#include <cub/block/block_reduce.cuh>
#include <cuda/std/functional>

#include "core/split.hpp"
#include "core/workloads/rms_softmax.hpp"
#include "kernels/element_access.cuh"

namespace credit::kernels::unfused {

inline constexpr int kThreads = 256;

// Element-wise kernels: one thread per element, grid-stride. The row tensors x and y are stored as E (float, or a
// 16-bit type); the intermediates x^2 and E stay fp32, so that the output's rounding is the chain's only one
// beyond fp32's, as in the fused kernels.
template <class E>
__global__ void __launch_bounds__(kThreads) square(const E* x, float* sq, long long count) {
  for (long long i = blockIdx.x * (long long)kThreads + threadIdx.x; i < count; i += (long long)gridDim.x * kThreads) {
    const float v = to_float(x[i]);
    sq[i] = v * v;
  }
}

template <class E>
__global__ void __launch_bounds__(kThreads) exponentials(const E* x, const float* s, const float* m, float* e,
                                                         int n, long long count) {
  for (long long i = blockIdx.x * (long long)kThreads + threadIdx.x; i < count; i += (long long)gridDim.x * kThreads) {
    const long long r = i / n;
    e[i] = expf((to_float(x[i]) - m[r]) * s[r]);
  }
}

template <class E>
__global__ void __launch_bounds__(kThreads) normalize(const float* e, const float* z, E* y, int n, long long count) {
  for (long long i = blockIdx.x * (long long)kThreads + threadIdx.x; i < count; i += (long long)gridDim.x * kThreads)
    y[i] = from_float<E>(e[i] / z[i / n]);
}

// Tile reductions: CTA blockIdx.x reduces tile (blockIdx.x % p) of row (blockIdx.x / p) of v (x as stored, or an fp32
// intermediate).
template <bool Max, class T>
__global__ void __launch_bounds__(kThreads) tile_reduce(const T* v, float* tiles, int n, int p) {
  using Reduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const long long row = blockIdx.x / unsigned(p);
  const Slice s = slice_of(n, p, int(blockIdx.x % unsigned(p)));
  float acc = Max ? -INFINITY : 0.0f;
  for (int i = s.lo + int(threadIdx.x); i < s.hi; i += kThreads) {
    const float x = to_float(v[row * n + i]);
    acc = Max ? fmaxf(acc, x) : acc + x;
  }
  const float r = Max ? Reduce(tmp).Reduce(acc, cuda::maximum<float>{}) : Reduce(tmp).Sum(acc);
  if (threadIdx.x == 0) tiles[blockIdx.x] = r;
}

// Row reductions of the tile results: one warp per row, lanes reading tiles in parallel.
enum class RowOp { InvRms, Max, Sum };
inline constexpr int kRowsPerBlock = kThreads / 32;

template <RowOp Op>
__global__ void __launch_bounds__(kThreads) row_reduce(const float* tiles, float* out, int n, int p, long long rows) {
  const long long r = blockIdx.x * (long long)kRowsPerBlock + threadIdx.x / 32;
  if (r >= rows) return;  // whole warps leave together
  float acc = Op == RowOp::Max ? -INFINITY : 0.0f;
  for (int c = int(threadIdx.x & 31u); c < p; c += 32)
    acc = Op == RowOp::Max ? fmaxf(acc, tiles[r * p + c]) : acc + tiles[r * p + c];
  for (int o = 16; o > 0; o >>= 1) {
    const float v = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = Op == RowOp::Max ? fmaxf(acc, v) : acc + v;
  }
  if ((threadIdx.x & 31u) == 0) out[r] = Op == RowOp::InvRms ? 1.0f / sqrtf(acc / float(n) + workloads::RmsSoftmax::eps) : acc;
}

}  // namespace credit::kernels::unfused
