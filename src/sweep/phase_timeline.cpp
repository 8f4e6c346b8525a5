#include "sweep/phase_timeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace credit {

namespace {

double at_share(const std::vector<double>& sorted, double share) {
  return sorted[std::min(sorted.size() - 1, std::size_t(share * double(sorted.size())))];
}

}  // namespace

std::vector<PhaseMark> phase_timeline(std::span<const unsigned long long> clock, long long ctas, int stride, int stages) {
  const int marks = 2 * stages + 2;
  if (ctas < 1 || stages < 0 || stride < marks || clock.size() < std::size_t(ctas) * std::size_t(stride))
    throw std::invalid_argument("phase timeline: " + std::to_string(clock.size()) + " stamps cannot hold " +
                                std::to_string(ctas) + " CTAs of " + std::to_string(marks) + " marks");
  auto stamp = [&](long long c, int k) { return clock[std::size_t(c) * std::size_t(stride) + std::size_t(k)]; };
  unsigned long long t0 = ~0ULL;
  for (long long c = 0; c < ctas; ++c) t0 = std::min(t0, stamp(c, 0));
  std::vector<PhaseMark> out;
  for (int k = 0; k < marks; ++k) {
    std::vector<double> us, step;
    for (long long c = 0; c < ctas; ++c) {
      us.push_back(double(stamp(c, k) - t0) * 1e-3);
      // a CTA's stamps are in order (one thread writes them); a clock read before the previous one would be a bug
      step.push_back(k == 0 ? 0.0 : (double(stamp(c, k)) - double(stamp(c, k - 1))) * 1e-3);
    }
    std::sort(us.begin(), us.end());
    std::sort(step.begin(), step.end());
    const std::string stage = std::to_string((k - 1) / 2);
    out.push_back({k == 0 ? "start" : k == marks - 1 ? "outputs issued"
                                    : k % 2 ? "stage " + stage + " accumulated" : "stage " + stage + " exchanged",
                   at_share(us, 0.5), us.back(), at_share(step, 0.5), at_share(step, 0.9)});
  }
  return out;
}

}  // namespace credit
