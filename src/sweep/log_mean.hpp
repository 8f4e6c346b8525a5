#pragma once
// A geometric mean built one ratio at a time (the A/B comparison's groups, the peer table's cells).
#include <cmath>
#include <cstddef>

namespace credit {

struct LogMean {
  double sum = 0;
  std::size_t n = 0;
  void add(double r) { sum += std::log(r), ++n; }
  double geomean() const { return std::exp(sum / double(n)); }
};

}  // namespace credit
