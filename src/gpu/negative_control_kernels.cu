// The negative controls written in stages of statistics (SplitRowControls) on the one-CTA and
// clustered kernels, measured once by credit bench (issue 14): three kernels each, no more.
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "core/workloads/controls/all.hpp"
#include "gpu/kernel_table.hpp"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

namespace {

template <class W>
long split_smem_of(long n, int p) { return split_smem_bytes<W>(n, p); }

template <class W>
Kernels kernels_of_control() {
  Kernels k{};
  k.staged = &kernels::split_row_kernel<W, kernels::LocalExchange>;
  k.cluster = &kernels::split_row_kernel<W, kernels::DsmemExchange>;
  k.reread = &kernels::global_reread_kernel<W>;
  k.split_smem = &split_smem_of<W>;
  k.stats = num_stats<W>();
  k.stages = num_stages<W>();
  k.retained = popcount(retained_mask<W>());
  return k;
}

}  // namespace

const Kernels* negative_control_kernels(std::string_view name) {
  static const std::map<std::string, Kernels, std::less<>> table = [] {
    std::map<std::string, Kernels, std::less<>> t;
    std::apply([&](auto... w) { ((t[decltype(w)::name] = kernels_of_control<decltype(w)>()), ...); },
               SplitRowControls{});
    return t;
  }();
  const auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace credit::gpu
