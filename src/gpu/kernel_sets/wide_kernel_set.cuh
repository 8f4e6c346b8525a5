#pragma once
// The wide-row kernels of one declaration W (kernels::Stored<D, E> for a 16-bit type): partial retention (the
// clustered kernel keeping part of each slice, at two CTAs and at one CTA per SM), split_global (the split-row kernel
// seated by tickets, partials through global memory). What wide_kernels.cu (f32), wide_kernels_bf16.cu and
// wide_kernels_f16.cu instantiate, one translation unit each so that they compile side by side.
#include <string_view>
#include <type_traits>

#include "core/workloads/all.hpp"
#include "gpu/launch/kernel_table.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

template <class W>
void add_wide_kernels(Kernels& k) {
  static_assert(num_stages<W>() > 0, "split_global keeps its seat in the exchange's mbarrier words, one per stage");
  k.partial = &kernels::split_row_kernel<W, kernels::DsmemExchange, true, kPartialCtasPerSm>;
  k.partial_one = &kernels::split_row_kernel<W, kernels::DsmemExchange, true, kPartialOneCtasPerSm>;
  k.split_global = &kernels::split_row_kernel<W, kernels::TicketRowExchange>;
}

// Adds to k the wide-row kernels of the declared workload named `workload` stored as E (kernels::Stored<D, E>; D
// itself for float); false for any other name.
template <class E>
bool add_wide_kernels_of(std::string_view workload, Kernels& k) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using D = decltype(decl);
    if (found || workload != D::name) return;
    if constexpr (std::is_same_v<E, float>) add_wide_kernels<D>(k);
    else add_wide_kernels<kernels::Stored<D, E>>(k);
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
