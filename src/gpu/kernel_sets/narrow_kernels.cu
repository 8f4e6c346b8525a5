// The kernels built in bf16 and fp16: every schedule (seed 001's
// unfused chain is launched from schedules.cu in each type) instantiated for Stored<W, E> (kernels/element_access.cuh), reading and writing the row
// tensors, column parameters and per-element float outputs as E and computing in fp32. In a file of their own so
// that they compile beside schedules.cu (the register kernels in register_kernels_bf16.cu / _f16.cu, the wide-row
// ones in wide_kernels_bf16.cu / _f16.cu).
#include <map>
#include <string>
#include <type_traits>

#include "core/workloads/all.hpp"
#include "gpu/kernel_sets/seed001_kernel_set.cuh"
#include "gpu/kernel_sets/split_row_kernel_set.cuh"
#include "kernels/element_access.cuh"

namespace credit::gpu {

namespace {

template <class E>
std::map<std::string, Kernels, std::less<>> narrow_table() {
  std::map<std::string, Kernels, std::less<>> t;
  for_each_workload([&](auto decl) {
    using W = kernels::Stored<decltype(decl), E>;
    Kernels k = split_row_kernel_set<W>();
    add_seed001_kernels<W>(k);
    if constexpr (std::is_same_v<E, __nv_bfloat16>) {
      register_kernels_bf16(decltype(decl)::name, k.registers);
      wide_kernels_bf16(decltype(decl)::name, k);
    } else {
      register_kernels_f16(decltype(decl)::name, k.registers);
      wide_kernels_f16(decltype(decl)::name, k);
    }
    t[decltype(decl)::name] = k;
  });
  return t;
}

}  // namespace

const Kernels* narrow_kernels(std::string_view workload, ElementType type) {
  if (type == ElementType::F32) return nullptr;
  static const auto bf16 = narrow_table<__nv_bfloat16>();
  static const auto f16 = narrow_table<__half>();
  const auto& table = type == ElementType::BF16 ? bf16 : f16;
  const auto it = table.find(workload);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace credit::gpu
