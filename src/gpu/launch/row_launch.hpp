#pragma once
// The launch configuration of a row kernel: rows x p CTAs of `threads` with `smem` bytes of
// dynamic shared memory, as clusters of p when `cluster`. Shared by the launcher (schedules.cu)
// and the kernels a user instantiates for an own declaration (include/credit/declare.cuh).
#include <cuda_runtime.h>

#include "core/build_options.hpp"

// CREDIT_CLUSTER_POLICY (an A/B build option): the clustered kernels' cluster scheduling policy preference, 0 the
// driver's default (spread, as Nsight Compute reports it), 2 load balancing (cudaClusterSchedulingPolicyLoadBalancing:
// the hardware may place several CTAs of one cluster on an SM, so clusters of 16 fill more of the CTA slots;
// docs/build-options.md). Every clustered kernel and the calibration's residency kernels take it
// alike, so that the recorded occupancy tables are those of the kernels they predict.
#ifndef CREDIT_CLUSTER_POLICY
#define CREDIT_CLUSTER_POLICY 0
#endif

namespace credit::gpu {

// Readies kernel for cluster launches: clusters of 16 (non-portable on Hopper, whose portable limit is 8), and the
// build's scheduling policy preference (CREDIT_CLUSTER_POLICY > 0). Every path that launches or sizes clusters calls
// this, so none can miss the policy. The first error, or cudaSuccess.
template <class K>
cudaError_t allow_cluster_launch(K* kernel) {
  const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  if constexpr (CREDIT_CLUSTER_POLICY > 0)
    if (e == cudaSuccess)
      return cudaFuncSetAttribute(kernel, cudaFuncAttributeClusterSchedulingPolicyPreference, CREDIT_CLUSTER_POLICY);
  return e;
}

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
