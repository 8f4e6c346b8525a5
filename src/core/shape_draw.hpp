#pragma once
// The shapes of a seeded held-out check (`credit validate`): K (workload, M, N) drawn from a seed, M log-uniform
// in [m_min, m_max], N log-uniform in [n_min, n_max], half of them ragged (N as drawn) and half aligned (N rounded
// to a multiple of kAlignedWidth, as the widths of models are). The same seed and ranges give the same shapes on
// every platform: the generator is std::mt19937_64, whose sequence the standard fixes, and the uniform draws
// are made from its raw output here (the standard's distributions may differ between libraries).
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "core/element_type.hpp"

namespace credit {

// Aligned widths are multiples of this (every width of configs/llm-widths.json is a multiple of 64; 256 keeps
// a bf16 row a whole number of the kernels' 16-byte groups per 32 threads).
inline constexpr long long kAlignedWidth = 256;

struct ShapeDraw {
  std::uint64_t seed = 0;
  int count = 250;
  long long m_min = 1, m_max = 16384, n_min = 1024, n_max = 1048576;
  ElementType element = ElementType::F32;
  std::vector<std::string> workloads;  // declared (untyped) names drawn from, uniformly
  double max_bytes = 0;                // a shape whose operands exceed it is drawn again (0: no limit)
  // Spelled out: this header reaches CUDA translation units, some compiled without C++20's defaulted ==.
  bool operator==(const ShapeDraw& o) const {
    return std::tie(seed, count, m_min, m_max, n_min, n_max, element, workloads, max_bytes) ==
           std::tie(o.seed, o.count, o.m_min, o.m_max, o.n_min, o.n_max, o.element, o.workloads, o.max_bytes);
  }
  bool operator!=(const ShapeDraw& o) const { return !(*this == o); }
};

struct DrawnShape {
  std::string workload;  // as in ShapeDraw::workloads
  long long m = 0, n = 0;
  bool operator==(const DrawnShape& o) const { return workload == o.workload && m == o.m && n == o.n; }
  bool operator!=(const DrawnShape& o) const { return !(*this == o); }
};

// std::invalid_argument naming the field for count < 1, an empty workload list, a range with min < 1 or
// min > max, or a negative max_bytes.
void check_shape_draw(const ShapeDraw& d);

// The draw's shapes, in draw order, no (workload, M, N) twice. `bytes(workload, m, n)` gives a shape's operand
// bytes for max_bytes. Throws as check_shape_draw, and std::invalid_argument when 1000 draws in a row find no new
// shape within max_bytes (the ranges hold too few).
std::vector<DrawnShape> draw_shapes(const ShapeDraw& d,
                                    const std::function<double(const std::string&, long long, long long)>& bytes);

}  // namespace credit
