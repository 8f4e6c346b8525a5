// The negative controls written in stages of statistics (SplitRowControls) on the one-CTA and
// clustered kernels, measured once by credit bench: three kernels each, no more.
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "core/workloads/controls/all.hpp"
#include "gpu/launch/kernel_table.hpp"
#include "gpu/kernel_sets/split_row_kernel_set.cuh"

namespace credit::gpu {

const Kernels* negative_control_kernels(std::string_view name) {
  static const std::map<std::string, Kernels, std::less<>> table = [] {
    std::map<std::string, Kernels, std::less<>> t;
    std::apply([&](auto... w) { ((t[decltype(w)::name] = split_row_kernel_set<decltype(w)>()), ...); },
               SplitRowControls{});
    return t;
  }();
  const auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace credit::gpu
