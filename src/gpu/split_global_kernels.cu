// The kernels of the schedules that split a row over plain CTAs with partials through global memory, for every
// workload: split_global's (the split-row kernel seated by tickets) and split_pipelined's (persistent row groups,
// two slice buffers). In a file of their own so that they compile beside schedules.cu, not inside it.
#include "core/workloads/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/pipelined_split_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

namespace {
// The kernel `of` gives for the workload named `workload`; nullptr for a name that is not a workload's.
template <class Of>
Kernel kernel_of_workload(std::string_view workload, Of of) {
  Kernel k = nullptr;
  for_each_workload([&](auto decl) {
    if (!k && workload == decltype(decl)::name) k = of(decl);
  });
  return k;
}
}  // namespace

Kernel split_global_kernel_of(std::string_view workload) {
  return kernel_of_workload(workload, [](auto decl) -> Kernel {
    using W = decltype(decl);
    static_assert(num_stages<W>() > 0, "split_global keeps its seat in the exchange's mbarrier words, one per stage");
    return &kernels::split_row_kernel<W, kernels::TicketRowExchange>;
  });
}

Kernel split_partial_kernel_of(std::string_view workload) {
  return kernel_of_workload(workload, [](auto decl) -> Kernel {
    using W = decltype(decl);
    if constexpr (retained_bytes_per_elem<W>() == 0) {
      return nullptr;  // keeps nothing in shared memory: nothing to keep part of
    } else {
      return &kernels::split_row_kernel<W, kernels::TicketRowExchange, true, kSplitPartialCtasPerSm>;
    }
  });
}

Kernel split_pipelined_kernel_of(std::string_view workload) {
  return kernel_of_workload(workload, [](auto decl) -> Kernel { return &kernels::pipelined_split_kernel<decltype(decl)>; });
}

}  // namespace credit::gpu
