#pragma once
// Launching a kernel as 1-D thread-block clusters of P CTAs (P = 1: a plain launch), and how
// many such clusters the device can hold at once. For .cu files (cudaLaunchKernelEx templates).
#include <cuda_runtime.h>

#include "gpu/device/cuda_check.hpp"
#include "gpu/launch/occupancy.hpp"
#include "gpu/launch/row_launch.hpp"

namespace credit::gpu {

struct ClusterShape {
  unsigned ctas = 0;  // grid size, a multiple of p
  int p = 1;          // CTAs per cluster; 1: no cluster attribute
  int threads = 0;
  size_t smem = 0;    // dynamic shared memory per CTA
};

inline cudaLaunchConfig_t launch_config(const ClusterShape& s, cudaStream_t stream, cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(s.ctas);
  cfg.blockDim = dim3(unsigned(s.threads));
  cfg.dynamicSmemBytes = s.smem;
  cfg.stream = stream;
  if (s.p > 1) {
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = unsigned(s.p);
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  return cfg;
}

// Lets `kernel` request up to the device's opt-in shared memory per CTA and clusters of 16
// (non-portable on Hopper, whose portable limit is 8).
template <class... A>
void allow_large_clusters(void (*kernel)(A...), long smem_optin) {
  CREDIT_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_optin)));
  CREDIT_CUDA(allow_cluster_launch(kernel));  // the residency tables the time model reads: the kernels' policy
}

// Clusters of this shape resident at once (cudaOccupancyMaxActiveClusters); 0 when none fits,
// where the launch would fail. Needs p > 1.
template <class... A>
int cluster_capacity(void (*kernel)(A...), const ClusterShape& s) {
  cudaLaunchAttribute attr{};
  return active_clusters_or_zero(kernel, launch_config(s, nullptr, &attr));
}

template <class... A, class... B>
void launch_shape(void (*kernel)(A...), const ClusterShape& s, cudaStream_t stream, B... args) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = launch_config(s, stream, &attr);
  CREDIT_CUDA(cudaLaunchKernelEx(&cfg, kernel, args...));
  CREDIT_CUDA_LAUNCHED();
}

}  // namespace credit::gpu
