// The register-resident kernels of every workload stored in bf16.
#include "gpu/kernel_sets/register_kernel_set.cuh"

namespace credit::gpu {

bool register_kernels_bf16(std::string_view workload, Kernel (&out)[kRegisterVariantCount]) {
  return narrow_register_kernels<__nv_bfloat16>(workload, out);
}

}  // namespace credit::gpu
