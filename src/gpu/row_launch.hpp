#pragma once
// The launch configuration of a row kernel: rows x p CTAs of `threads` with `smem` bytes of
// dynamic shared memory, as clusters of p when `cluster`. Shared by the launcher (schedules.cu)
// and the kernels a user instantiates for an own declaration (include/credit/declare.cuh).
#include <cuda_runtime.h>

namespace credit::gpu {

// `attr` must outlive the returned config (it points there when cluster is set).
inline cudaLaunchConfig_t row_launch_config(long long rows, int p, int threads, long smem, bool cluster,
                                            cudaStream_t stream, cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(rows * p));
  cfg.blockDim = dim3(unsigned(threads));
  cfg.dynamicSmemBytes = size_t(smem);
  cfg.stream = stream;
  if (cluster) {
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = unsigned(p);
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  return cfg;
}

}  // namespace credit::gpu
