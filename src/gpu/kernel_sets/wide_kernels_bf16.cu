// The wide-row kernels of every workload stored in bf16 (gpu/kernel_sets/wide_kernel_set.cuh).
#include "gpu/kernel_sets/wide_kernel_set.cuh"
#include "kernels/element_access.cuh"

namespace credit::gpu {

bool wide_kernels_bf16(std::string_view workload, Kernels& k) {
  return add_wide_kernels_of<__nv_bfloat16>(workload, k);
}

}  // namespace credit::gpu
