#pragma once
// The rule for adopting a model change (docs/model.md): two selections judged on the same shapes, the paired
// difference of their log regret, d_i = ln(1 + regret_a,i) - ln(1 + regret_b,i), and a percentile bootstrap
// interval of its mean over shapes. A change is adopted only when the interval on a fresh seed excludes zero.
// The mean of d is the log of the ratio of the two geomeans of (1 + regret): 100 x mean is close to the
// difference of the two regret geomeans in points.
#include <cstdint>
#include <vector>

namespace credit {

struct PairedInterval {
  int shapes = 0;
  double mean = 0;       // mean of d over the shapes
  double lo = 0, hi = 0; // the interval's bounds
  double level = 0.95;
  int resamples = 0;
  // b is better (lower regret) by an interval that excludes zero: hi < 0 means a's regret is lower.
  bool excludes_zero() const { return lo > 0 || hi < 0; }
};

inline constexpr int kBootstrapResamples = 10000;

// Throws std::invalid_argument when the two lists differ in length or are empty, a regret is negative or not
// finite, resamples < 100, or the level is outside (0, 1). The resampling is drawn from `seed` (std::mt19937_64):
// the same inputs and seed give the same interval.
PairedInterval paired_bootstrap(const std::vector<double>& regret_a, const std::vector<double>& regret_b,
                                std::uint64_t seed, int resamples = kBootstrapResamples, double level = 0.95);

}  // namespace credit
