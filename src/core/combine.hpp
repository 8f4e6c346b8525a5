#pragma once
#include <cmath>

#include "core/hd.hpp"

namespace credit {

// The associative operator (+) that combines per-element contributions into a statistic.
enum class Combine : unsigned char { Sum, Max };

CREDIT_HD constexpr float combine_identity(Combine op) {
  return op == Combine::Sum ? 0.0f : -INFINITY;
}

CREDIT_HD float combine_apply(Combine op, float a, float b) {
  return op == Combine::Sum ? a + b : fmaxf(a, b);
}

// The CPU execution accumulates a slice serially, so it sums in double: a float sum over a
// long slice would be less accurate than the GPU's tree and blur the comparison.
inline double combine_apply(Combine op, double a, double b) {
  return op == Combine::Sum ? a + b : (a > b ? a : b);
}

constexpr const char* combine_name(Combine op) { return op == Combine::Sum ? "sum" : "max"; }

}  // namespace credit
