// The wide-row kernels of every workload in fp32 (gpu/wide_kernel_set.cuh), and split_pipelined's (persistent row
// groups, two slice buffers; built in fp32 only). In a file of their own so that they compile beside schedules.cu,
// not inside it.
#include "gpu/wide_kernel_set.cuh"
#include "kernels/pipelined_split_kernel.cuh"

namespace credit::gpu {

bool wide_kernels_f32(std::string_view workload, Kernels& k) {
  return add_wide_kernels_of<float>(workload, k, [&](auto decl) {
    k.split_pipelined = &kernels::pipelined_split_kernel<decltype(decl)>;
  });
}

}  // namespace credit::gpu
