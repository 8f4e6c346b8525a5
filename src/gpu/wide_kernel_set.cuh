#pragma once
// The wide-row kernels of one declaration W (kernels::Stored<D, E> for a 16-bit type): partial retention (the
// clustered kernel keeping part of each slice, at two CTAs and at one CTA per SM), split_global (the split-row kernel
// seated by tickets, partials through global memory) and split_partial (split_global keeping part of each slice).
// What wide_kernels.cu (f32, with split_pipelined), wide_kernels_bf16.cu and wide_kernels_f16.cu instantiate, one
// translation unit each so that they compile side by side.
#include <string_view>
#include <type_traits>

#include "core/workloads/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

template <class W>
void add_wide_kernels(Kernels& k) {
  static_assert(num_stages<W>() > 0, "split_global keeps its seat in the exchange's mbarrier words, one per stage");
  k.partial = &kernels::split_row_kernel<W, kernels::DsmemExchange, true, kPartialCtasPerSm>;
  k.partial_one = &kernels::split_row_kernel<W, kernels::DsmemExchange, true, kPartialOneCtasPerSm>;
  k.split_global = &kernels::split_row_kernel<W, kernels::TicketRowExchange>;
  if constexpr (retained_bytes_per_elem<W>() > 0)  // else it keeps nothing in shared memory: nothing to keep part of
    k.split_partial = &kernels::split_row_kernel<W, kernels::TicketRowExchange, true, kSplitPartialCtasPerSm>;
}

// Adds to k the wide-row kernels of the declared workload named `workload` stored as E (kernels::Stored<D, E>; D
// itself for float), and `more(D)` for any other the caller's type builds; false for any other name.
template <class E, class More>
bool add_wide_kernels_of(std::string_view workload, Kernels& k, More&& more) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using D = decltype(decl);
    if (found || workload != D::name) return;
    if constexpr (std::is_same_v<E, float>) add_wide_kernels<D>(k);
    else add_wide_kernels<kernels::Stored<D, E>>(k);
    more(decl);
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
