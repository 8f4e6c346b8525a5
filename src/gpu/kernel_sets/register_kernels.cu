// The register-resident kernels of every workload in f32, one per RegisterVariant (core/split.hpp): in a
// file of their own so that they compile beside schedules.cu, not inside it.
#include "gpu/kernel_sets/register_kernel_set.cuh"

namespace credit::gpu {

bool register_kernels_of(std::string_view workload, Kernel (&out)[kRegisterVariantCount]) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using W = decltype(decl);
    if (found || workload != W::name) return;
    fill_register_kernels<W>(out, std::make_integer_sequence<int, kRegisterVariantCount>{});
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
