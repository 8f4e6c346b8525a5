#pragma once
// Clusters of a launch configuration the device holds at once (cudaOccupancyMaxActiveClusters);
// 0 where none fits: the query then fails, and its error is cleared rather than thrown.
#include <cuda_runtime.h>

namespace credit::gpu {

template <class... A>
int active_clusters_or_zero(void (*kernel)(A...), const cudaLaunchConfig_t& cfg) {
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return clusters;
}

}  // namespace credit::gpu
