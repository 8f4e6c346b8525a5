#include "core/shape_draw.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

namespace credit {

namespace {

// A double uniform in [0, 1) from the generator's top 53 bits.
double uniform(std::mt19937_64& g) { return double(g() >> 11) * 0x1p-53; }

long long log_uniform(std::mt19937_64& g, long long lo, long long hi) {
  const double x = std::exp(std::log(double(lo)) + uniform(g) * (std::log(double(hi)) - std::log(double(lo))));
  return std::clamp(std::llround(x), lo, hi);
}

}  // namespace

void check_shape_draw(const ShapeDraw& d) {
  if (d.count < 1) throw std::invalid_argument("shapes: expected at least 1, got " + std::to_string(d.count));
  if (d.workloads.empty()) throw std::invalid_argument("workloads: none to draw from");
  for (const auto& [name, lo, hi] : {std::tuple{"M", d.m_min, d.m_max}, std::tuple{"N", d.n_min, d.n_max}})
    if (lo < 1 || lo > hi)
      throw std::invalid_argument(std::string(name) + " range: expected 1 <= min <= max, got " + std::to_string(lo) +
                                  " ... " + std::to_string(hi));
  if (!(d.max_bytes >= 0)) throw std::invalid_argument("max_bytes: expected 0 (no limit) or more");
}

std::vector<DrawnShape> draw_shapes(const ShapeDraw& d,
                                    const std::function<double(const std::string&, long long, long long)>& bytes) {
  check_shape_draw(d);
  std::mt19937_64 g(d.seed);
  std::vector<DrawnShape> out;
  std::set<std::tuple<std::string, long long, long long>> seen;
  int misses = 0;
  while (int(out.size()) < d.count) {
    DrawnShape s;
    s.workload = d.workloads[std::min(d.workloads.size() - 1, std::size_t(uniform(g) * double(d.workloads.size())))];
    s.m = log_uniform(g, d.m_min, d.m_max);
    s.n = log_uniform(g, d.n_min, d.n_max);
    if (uniform(g) >= 0.5) {  // aligned: the nearest multiple within the range, when there is one
      const long long aligned = std::llround(double(s.n) / double(kAlignedWidth)) * kAlignedWidth;
      if (aligned >= d.n_min && aligned <= d.n_max) s.n = aligned;
    }
    const bool fits = d.max_bytes == 0 || bytes(s.workload, s.m, s.n) <= d.max_bytes;
    if (!fits || !seen.insert({s.workload, s.m, s.n}).second) {
      if (++misses == 1000)
        throw std::invalid_argument("the ranges hold fewer than " + std::to_string(d.count) +
                                    " distinct shapes within max_bytes (1000 draws in a row found no new one)");
      continue;
    }
    misses = 0;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace credit
