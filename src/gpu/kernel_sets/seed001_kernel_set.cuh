#pragma once
// Seed 001's schedules of one declaration: the megakernel (row and grid barriers) and local fusion's L + 1
// kernels, added to a table entry from split_row_kernel_set. The f32 table (schedules.cu) and the bf16 / fp16 one
// (narrow_kernels.cu, W = Stored<D, E>) both take them.
#include <utility>

#include "gpu/launch/kernel_table.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/local_fusion_kernels.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

template <class W, int... l>
void fill_fused(Kernel* k, std::integer_sequence<int, l...>) {  // local fusion: stages 0..L-1, then apply at L
  ((k[l] = &kernels::fused_stage_kernel<W, l>), ...);
  k[sizeof...(l)] = &kernels::fused_apply_kernel<W>;
}

template <class W>
void add_seed001_kernels(Kernels& k) {
  k.mega_row = &kernels::split_row_kernel<W, kernels::RowBarrierExchange>;
  k.mega_grid = &kernels::split_row_kernel<W, kernels::GridBarrierExchange>;
  fill_fused<W>(k.fused, std::make_integer_sequence<int, num_stages<W>()>{});
}

}  // namespace credit::gpu
