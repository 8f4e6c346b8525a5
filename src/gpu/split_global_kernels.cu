// split_global's kernel of every workload (the split-row kernel seated by tickets, partials through
// global memory): in a file of its own so that it compiles beside schedules.cu, not inside it.
#include "core/workloads/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

Kernel split_global_kernel_of(std::string_view workload) {
  Kernel k = nullptr;
  for_each_workload([&](auto decl) {
    using W = decltype(decl);
    static_assert(num_stages<W>() > 0, "split_global keeps its seat in the exchange's mbarrier words, one per stage");
    if (!k && workload == W::name) k = &kernels::split_row_kernel<W, kernels::TicketRowExchange>;
  });
  return k;
}

}  // namespace credit::gpu
