#pragma once
// Seed 001's megakernel exchange: the P CTAs of a row (consecutive blockIdx, no cluster) share
// partials through global memory and wait at a row-scoped barrier built from device-scope
// release/acquire atomics. Thread 0 of each CTA writes its partials, then counts its arrival on
// the row's per-stage counter with release semantics, and spins with acquire loads until all P
// have arrived; the CTA barrier then hands the view to the other threads, which read the
// partials from L2 in rank order (every CTA combines them identically). Deadlock-free only when
// every CTA of the launch is resident at once: the launcher caps the launch at the active blocks
// per SM times the SM count and splits the rows into groups beyond that (cooperative launch).
#include <cuda/atomic>

#include "core/operands.hpp"
#include "core/workload.hpp"

namespace credit::kernels {

struct GlobalExchange {
  static constexpr int pressure = 4;  // 64-bit scratch pointers and the spin loop
  __device__ static int size(const RowOperands& op) { return op.split; }
  __device__ static int rank(const RowOperands& op) { return int(blockIdx.x % unsigned(op.split)); }
  template <class W>
  __device__ static void begin(const RowOperands&, std::uint64_t*) {}

  template <class W, int l>
  __device__ static void all_reduce(const RowOperands& op, long long row, float (&part)[W::stages[l].q], float*,
                                    std::uint64_t*) {
    constexpr int q = W::stages[l].q;
    constexpr int off = stat_offset<W>(l);
    const int p = op.split, me = rank(op);
    const long long local = row - op.row0;
    float* stats = op.partials + (local * num_stats<W>() + off) * p;  // [stat][rank]
    if (threadIdx.x == 0) {
#pragma unroll
      for (int j = 0; j < q; ++j) stats[j * p + me] = part[j];
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(op.arrivals[local * num_stages<W>() + l]);
      arrived.fetch_add(1u, cuda::memory_order_release);
      while (arrived.load(cuda::memory_order_acquire) < unsigned(p)) __nanosleep(64);
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < q; ++j) {
      float r = combine_identity(op_of<W>(off + j));
      for (int c = 0; c < p; ++c) r = combine_apply(op_of<W>(off + j), r, __ldcg(&stats[j * p + c]));
      part[j] = r;
    }
  }
};

}  // namespace credit::kernels
