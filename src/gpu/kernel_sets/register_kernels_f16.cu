// The register-resident kernels of every workload stored in fp16.
#include "gpu/kernel_sets/register_kernel_set.cuh"

namespace credit::gpu {

bool register_kernels_f16(std::string_view workload, Kernel (&out)[kRegisterVariantCount]) {
  return narrow_register_kernels<__half>(workload, out);
}

}  // namespace credit::gpu
