#pragma once
// The register-resident kernels of one declaration W (kernels::Stored<D, E> for a 16-bit type), one per
// RegisterVariant: what register_kernels.cu (f32), register_kernels_bf16.cu and register_kernels_f16.cu instantiate.
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/workloads/all.hpp"
#include "gpu/launch/kernel_table.hpp"
#include "kernels/register_row_kernel.cuh"

namespace credit::gpu {

// The Cluster family's variants exchange through DSMEM (cluster_registers); the others run a row per CTA.
template <int v>
using RegisterExchangeOf = std::conditional_t<kRegisterVariants[v].family == RegisterFamily::Cluster,
                                              kernels::DsmemExchange, kernels::LocalExchange>;

template <class W, int... v>
void fill_register_kernels(Kernel* k, std::integer_sequence<int, v...>) {
  ((k[v] = &kernels::register_row_kernel<W, kRegisterVariants[v].threads, kRegisterVariants[v].groups,
                                         RegisterExchangeOf<v>>),
   ...);
}

// Fills out with the register kernels of the declared workload named `workload` stored as E (a narrow type);
// false for any other name.
template <class E>
bool narrow_register_kernels(std::string_view workload, Kernel (&out)[kRegisterVariantCount]) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using D = decltype(decl);
    if (found || workload != D::name) return;
    fill_register_kernels<kernels::Stored<D, E>>(out, std::make_integer_sequence<int, kRegisterVariantCount>{});
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
