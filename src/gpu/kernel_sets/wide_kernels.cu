// The wide-row kernels of every workload in fp32 (gpu/kernel_sets/wide_kernel_set.cuh). In a file of their own so that they
// compile beside schedules.cu, not inside it.
#include "gpu/kernel_sets/wide_kernel_set.cuh"

namespace credit::gpu {

bool wide_kernels_f32(std::string_view workload, Kernels& k) { return add_wide_kernels_of<float>(workload, k); }

}  // namespace credit::gpu
