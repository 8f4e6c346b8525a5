// split_pipelined's kernel of every workload (persistent row groups, two slice buffers, partials through global
// memory): in a file of its own so that it compiles beside schedules.cu, not inside it.
#include "core/workloads/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/pipelined_split_kernel.cuh"

namespace credit::gpu {

namespace {
template <class W>
long pipelined_smem_of(long n, int p) { return pipelined_smem_bytes<W>(n, p); }
}  // namespace

bool split_pipelined_kernel_of(std::string_view workload, Kernel& kernel, long (*&smem)(long n, int p)) {
  bool found = false;
  for_each_workload([&](auto decl) {
    using W = decltype(decl);
    if (found || workload != W::name) return;
    kernel = &kernels::pipelined_split_kernel<W>;
    smem = &pipelined_smem_of<W>;
    found = true;
  });
  return found;
}

}  // namespace credit::gpu
