#include "report/report_stats.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace credit::report {

std::vector<std::string> baseline_keys(const Comparison& c) {
  std::vector<std::string> keys{std::string(kCuda.key)};
  keys.insert(keys.end(), c.frameworks.begin(), c.frameworks.end());
  return keys;
}

std::optional<std::string> fastest_baseline(const ShapeResult& s) {
  std::optional<std::string> best;
  if (s.baselines.size() < 2) return best;  // "best" of one baseline would just repeat it
  double t = 0;
  for (const auto& [key, timing] : s.baselines)
    if (std::isfinite(timing.ms) && timing.ms > 0 && (!best || timing.ms < t)) {
      best = key;
      t = timing.ms;
    }
  return best;
}

std::optional<double> speedup(const ShapeResult& s, std::string_view baseline) {
  if (!s.credit || !(s.credit->ms > 0)) return std::nullopt;
  std::string key(baseline);
  if (baseline == kBest) {
    const auto best = fastest_baseline(s);
    if (!best) return std::nullopt;
    key = *best;
  }
  const auto it = s.baselines.find(key);
  if (it == s.baselines.end() || !(it->second.ms > 0)) return std::nullopt;
  return it->second.ms / s.credit->ms;
}

std::optional<int> measured_p(const ShapeResult& s) {
  if (s.cluster_wins && s.credit) return s.credit->p;
  return s.one_cta ? std::optional<int>(1) : std::nullopt;
}

std::optional<double> cluster_speedup(const ShapeResult& s) {
  if (!s.credit || !s.one_cta || !(s.credit->ms > 0)) return std::nullopt;
  return s.one_cta->ms / s.credit->ms;
}

std::optional<std::string> pick_variant(const Comparison& c) {
  for (const char* v : {"time", "refined", "paper"})
    if (std::any_of(c.shapes.begin(), c.shapes.end(), [&](const ShapeResult& s) { return s.picked_p.count(v) > 0; }))
      return v;
  return std::nullopt;
}

std::optional<double> geomean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double log_sum = 0;
  for (double x : v) log_sum += std::log(x);
  return std::exp(log_sum / double(v.size()));
}

std::set<int> cluster_sizes(const Calibration& c) {
  std::set<int> ps;
  for (const auto* m : {&c.local_read, &c.local_store, &c.remote_read, &c.remote_store, &c.barrier})
    for (const auto& [p, s] : *m) ps.insert(p);
  for (const auto& [p, n] : c.max_active_clusters) ps.insert(p);
  return ps;
}

std::vector<long long> widths(const Comparison& c) {
  std::set<long long> n;
  for (const auto& s : c.shapes) n.insert(s.n);
  return {n.begin(), n.end()};
}

Confusion confusion(const Comparison& c, const std::string& variant, std::string_view cuda_schedule) {
  Confusion m;
  for (const auto& s : c.shapes) {
    const auto p = s.predicted_p.find(variant);
    const auto b = s.baselines.find(std::string(kCuda.key));
    if (p == s.predicted_p.end() || b == s.baselines.end()) continue;
    if (!cuda_schedule.empty() && b->second.schedule != cuda_schedule) continue;
    const bool predicted = p->second.has_value();
    (predicted ? (s.measured_profitable ? m.tp : m.fp) : (s.measured_profitable ? m.fn : m.tn)) += 1;
  }
  return m;
}

std::optional<int> width_steps(const Comparison& c, const std::string& workload, std::optional<long long> predicted,
                               std::optional<long long> measured) {
  if (!predicted || !measured) return std::nullopt;
  std::set<long long> tested;
  for (const auto& s : c.shapes)
    if (s.workload == workload) tested.insert(s.n);
  const auto pos = [&](long long n) { return int(std::distance(tested.begin(), tested.lower_bound(n))); };
  return pos(*predicted) - pos(*measured);
}

}  // namespace credit::report
