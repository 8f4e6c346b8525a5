#pragma once
// The work-free control kernel (DESIGN.md section 3, paper T_ctrl): no memory work, only the
// K = 2L barriers a row of the clustered protocol pays. Launched with the clustered kernel's
// grid, cluster size, dynamic shared memory and CTA size; the one-CTA reference replaces the
// cluster barriers by __syncthreads. Dynamic shared memory is requested, never touched: it
// only shapes residency, as in the real kernel.
#include "core/split.hpp"
#include "microbench/ptx.cuh"

namespace credit::microbench {

template <bool kCluster>
__global__ void __launch_bounds__(SplitPolicy::threads) control_kernel(int barriers) {
  for (int k = 0; k < barriers; ++k) {
    if constexpr (kCluster)
      cluster_sync();
    else
      __syncthreads();
  }
}

}  // namespace credit::microbench
