// The register-resident kernels of every workload, one per RegisterVariant (core/split.hpp): in a
// file of their own so that they compile beside schedules.cu, not inside it.
#include <type_traits>
#include <utility>

#include "core/workloads/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/register_row_kernel.cuh"

namespace credit::gpu {

namespace {
// The Cluster family's variants exchange through DSMEM (cluster_registers); the others run a row per CTA.
template <int v>
using ExchangeOf = std::conditional_t<kRegisterVariants[v].family == RegisterFamily::Cluster, kernels::DsmemExchange,
                                      kernels::LocalExchange>;
template <class W, bool Whole, int... v>
void fill(Kernel* k, std::integer_sequence<int, v...>) {
  ((k[v] = &kernels::register_row_kernel<W, kRegisterVariants[v].threads, kRegisterVariants[v].groups, ExchangeOf<v>,
                                         Whole>),
   ...);
}
}  // namespace

bool register_kernels_of(std::string_view workload, Kernel (&out)[kRegisterVariantCount], bool whole_groups) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using W = decltype(decl);
    if (found || workload != W::name) return;
    if (!whole_groups) fill<W, false>(out, std::make_integer_sequence<int, kRegisterVariantCount>{});
    else if constexpr (kRegisterWholeGroups)  // instantiated only in a build that launches them
      fill<W, true>(out, std::make_integer_sequence<int, kRegisterVariantCount>{});
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
