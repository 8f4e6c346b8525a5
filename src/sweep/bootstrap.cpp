#include "sweep/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace credit {

PairedInterval paired_bootstrap(const std::vector<double>& regret_a, const std::vector<double>& regret_b,
                                std::uint64_t seed, int resamples, double level) {
  if (regret_a.size() != regret_b.size() || regret_a.empty())
    throw std::invalid_argument("paired bootstrap: expected two regret lists of one non-zero length, got " +
                                std::to_string(regret_a.size()) + " and " + std::to_string(regret_b.size()));
  if (resamples < 100) throw std::invalid_argument("paired bootstrap: expected at least 100 resamples");
  if (!(level > 0 && level < 1)) throw std::invalid_argument("paired bootstrap: the level must lie in (0, 1)");
  std::vector<double> d(regret_a.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (double r : {regret_a[i], regret_b[i]})
      if (!(r >= 0 && std::isfinite(r)))
        throw std::invalid_argument("paired bootstrap: a regret must be finite and >= 0, got " + std::to_string(r));
    d[i] = std::log1p(regret_a[i]) - std::log1p(regret_b[i]);
  }
  PairedInterval out;
  out.shapes = int(d.size());
  out.level = level;
  out.resamples = resamples;
  double sum = 0;
  for (double x : d) sum += x;
  out.mean = sum / double(d.size());
  std::mt19937_64 g(seed);
  const std::uint64_t k = d.size();
  std::vector<double> means(static_cast<std::size_t>(resamples));
  for (double& m : means) {
    double s = 0;
    for (std::uint64_t i = 0; i < k; ++i) s += d[std::size_t(g() % k)];  // modulo bias below 2^-40 for any k here
    m = s / double(k);
  }
  std::sort(means.begin(), means.end());
  const double tail = (1 - level) / 2;
  auto at = [&](double q) { return means[std::min(means.size() - 1, std::size_t(q * double(means.size())))]; };
  out.lo = at(tail);
  out.hi = at(1 - tail);
  return out;
}

}  // namespace credit
