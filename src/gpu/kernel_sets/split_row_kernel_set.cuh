#pragma once
// The staged, clustered and global-reread kernels of one declaration, as the launcher's table holds them (every
// other entry null): what the negative controls (negative_control_kernels.cu) run, and where the f32 table
// (schedules.cu) and the bf16 / fp16 one (narrow_kernels.cu, W = Stored<D, E>) start.
#include "core/split.hpp"
#include "gpu/launch/kernel_table.hpp"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

template <class W>
long split_row_smem(long n, int p) { return split_smem_bytes<W>(n, p); }

template <class W>
Kernels split_row_kernel_set() {
  Kernels k{};
  k.staged = &kernels::split_row_kernel<W, kernels::LocalExchange>;
  k.cluster = &kernels::split_row_kernel<W, kernels::DsmemExchange>;
  k.reread = &kernels::global_reread_kernel<W>;
  k.split_smem = &split_row_smem<W>;
  k.stats = num_stats<W>();
  k.stages = num_stages<W>();
  k.retained = popcount(retained_mask<W>());
  k.vec = kernels::group_elems<element_t<W>>;
  return k;
}

}  // namespace credit::gpu
