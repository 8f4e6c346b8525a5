#include "sweep/ab_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "credit/schedule.hpp"
#include "io/meta.hpp"
#include "io/text_table.hpp"
#include "model/time_model.hpp"
#include "sweep/log_mean.hpp"

namespace credit {

namespace {

using Key = std::tuple<std::string, long long, long long, std::string, int>;

std::map<Key, double> passed_times(const std::vector<SweepPoint>& points, const std::string& schedule) {
  std::map<Key, double> out;
  for (const SweepPoint& p : points) {
    if (p.disposition != Disposition::Passed || (!schedule.empty() && p.schedule != schedule)) continue;
    // A ladder's rungs differ by variant and by submission (direct launch or graph replay) as well.
    const std::string kernel = p.schedule + (p.variant.empty() ? "" : "+" + p.variant) +
                               (p.submission == "graph" ? "@graph" : "");
    const Key k{p.workload, p.m, p.n, kernel, p.p};
    const auto [at, fresh] = out.emplace(k, p.time_ms.median);
    if (!fresh) at->second = std::min(at->second, p.time_ms.median);
  }
  return out;
}

// Groups of the points by key_of (ordered by the key: P and shapes numerically), each labelled by label_of.
template <class KeyOf, class LabelOf>
std::vector<AbGroup> grouped(const std::vector<AbPoint>& points, KeyOf key_of, LabelOf label_of) {
  std::map<decltype(key_of(points.front())), std::pair<std::string, LogMean>> groups;
  for (const AbPoint& p : points) {
    auto& [label, mean] = groups[key_of(p)];
    label = label_of(p);
    mean.add(p.ratio());
  }
  std::vector<AbGroup> out;
  for (const auto& [key, g] : groups) out.push_back({g.first, g.second.n, g.second.geomean()});
  return out;
}

}  // namespace

AbComparison compare_ab(const std::vector<SweepPoint>& a, const std::vector<SweepPoint>& b,
                        const std::string& schedule) {
  const auto ta = passed_times(a, schedule), tb = passed_times(b, schedule);
  AbComparison c;
  for (const auto& [k, ms] : ta) {
    const auto other = tb.find(k);
    if (other == tb.end()) {
      ++c.a_only;
      continue;
    }
    const auto& [w, m, n, s, p] = k;
    c.points.push_back({w, m, n, s, p, ms, other->second});
  }
  c.b_only = tb.size() - c.points.size();
  if (c.points.empty())
    throw std::invalid_argument("no point passed in both A and B" +
                                (schedule.empty() ? std::string() : " for schedule " + schedule));
  LogMean all;
  c.min = std::numeric_limits<double>::infinity();
  c.max = 0;
  for (const AbPoint& p : c.points) {
    all.add(p.ratio());
    c.min = std::min(c.min, p.ratio());
    c.max = std::max(c.max, p.ratio());
  }
  c.geomean = all.geomean();
  c.by_p = grouped(c.points, [](const AbPoint& p) { return p.p; }, [](const AbPoint& p) { return std::to_string(p.p); });
  c.by_schedule = grouped(c.points, [](const AbPoint& p) { return p.schedule; }, [](const AbPoint& p) { return p.schedule; });
  c.by_shape = grouped(c.points, [](const AbPoint& p) { return std::make_pair(p.m, p.n); },
                       [](const AbPoint& p) { return fmt::format("{}x{}", p.m, p.n); });
  std::map<std::tuple<std::string, long long, long long, std::string>, std::pair<double, double>> best;
  for (const AbPoint& p : c.points) {
    auto [at, fresh] = best.emplace(std::make_tuple(p.workload, p.m, p.n, p.schedule), std::make_pair(p.a_ms, p.b_ms));
    if (!fresh) at->second = {std::min(at->second.first, p.a_ms), std::min(at->second.second, p.b_ms)};
  }
  LogMean best_mean;
  for (const auto& [k, t] : best) {
    const double ratio = t.second / t.first;
    best_mean.add(ratio);
    if (ratio > c.best_p_max) {
      c.best_p_max = ratio;
      const auto& [w, m, n, s] = k;
      c.best_p_max_at = fmt::format("{} {}x{} {}", w, m, n, s);
    }
  }
  c.best_p = {"best P", best_mean.n, best_mean.geomean()};
  return c;
}

std::string describe_builds(const std::vector<Meta>& metas) {
  std::vector<std::string> seen;
  for (const Meta& m : metas) {
    const std::string d = m.build_defines_recorded ? build_defines_label(m.build_defines) : "not recorded";
    if (std::find(seen.begin(), seen.end(), d) == seen.end()) seen.push_back(d);
  }
  std::string out;
  for (const std::string& d : seen) out += (out.empty() ? "" : " | ") + d;
  return out;
}

std::string format_ab(const AbComparison& c) {
  auto groups = [](const std::vector<AbGroup>& g) {
    std::string s;
    for (const AbGroup& x : g) s += fmt::format("{}{}: {:.4f} (n={})", s.empty() ? "" : "; ", x.label, x.geomean, x.points);
    return s;
  };
  std::string out = fmt::format("points passed in both: {} (A only {}, B only {})\n", c.points.size(), c.a_only, c.b_only);
  out += fmt::format("B / A time: geomean {:.4f}, min {:.3f}, max {:.3f}\n", c.geomean, c.min, c.max);
  out += "  by P: " + groups(c.by_p) + "\n";
  out += "  by schedule: " + groups(c.by_schedule) + "\n";
  out += "  by M x N: " + groups(c.by_shape) + "\n";
  out += fmt::format("best P per (workload, M, N, schedule): B / A geomean {:.4f} over {}, max {:.3f} ({})\n",
                     c.best_p.geomean, c.best_p.points, c.best_p_max, c.best_p_max_at);
  std::vector<AbPoint> slowest = c.points;
  std::sort(slowest.begin(), slowest.end(), [](const AbPoint& x, const AbPoint& y) { return x.ratio() > y.ratio(); });
  slowest.resize(std::min<std::size_t>(5, slowest.size()));
  out += "B slowest against A:";
  for (const AbPoint& p : slowest)
    out += fmt::format(" {} {}x{} {} P={} {:.3f};", p.workload, p.m, p.n, p.schedule, p.p, p.ratio());
  out.back() = '\n';
  return out;
}

std::vector<VersusRow> versus_others(const std::vector<SweepPoint>& points, const std::string& schedule) {
  if (!find_schedule(schedule))
    throw std::invalid_argument("unknown schedule '" + schedule + "' (known: " + known_schedules() + ")");
  std::map<std::tuple<std::string, long long, long long>, VersusRow> shapes;
  for (const SweepPoint& p : points) {
    if (p.disposition != Disposition::Passed || p.time_ms.median <= 0) continue;
    // A ladder's rungs by graph replay or with a named variant are timed otherwise than a direct launch: both sides
    // are compared by direct launch only.
    const bool plain = (p.variant.empty() || p.variant == "auto") && p.submission != "graph";
    const double t = p.time_ms.median;
    if (p.schedule == schedule && plain) {
      VersusRow& r = shapes[{p.workload, p.m, p.n}];
      r.workload = p.workload, r.m = p.m, r.n = p.n;
      if (r.ms == 0 || t < r.ms) r.ms = t, r.p = p.p;
    } else if (p.schedule != schedule && plain && model::is_candidate_point(p.workload, p.schedule, p.p, p.n)) {
      // Only what the selector could pick instead: never the work-free control, the copy floor or a peer.
      VersusRow& r = shapes[{p.workload, p.m, p.n}];
      r.workload = p.workload, r.m = p.m, r.n = p.n;
      if (r.other_ms == 0 || t < r.other_ms) {
        r.other_ms = t;
        r.other = fmt::format("{} P={}", p.schedule, p.p);
      }
    }
  }
  std::vector<VersusRow> out;
  for (const auto& [k, r] : shapes)
    if (r.ms > 0 && r.other_ms > 0) out.push_back(r);
  if (out.empty())
    throw std::invalid_argument("no shape where " + schedule + " and another candidate schedule both passed");
  return out;
}

std::string format_versus(const std::string& schedule, const std::vector<VersusRow>& rows, double margin) {
  using io::TextTable;
  TextTable table({{"workload", TextTable::Align::left}, {"M"}, {"N"}, {"P"}, {schedule + " ms"},
                   {"fastest other", TextTable::Align::left}, {"ms"}, {"other/it"}});
  LogMean mean;
  std::size_t faster = 0;
  for (const VersusRow& r : rows) {
    table.row({r.workload, std::to_string(r.m), std::to_string(r.n), std::to_string(r.p), fmt::format("{:.4f}", r.ms),
               r.other, fmt::format("{:.4f}", r.other_ms), fmt::format("{:.3f}", r.speedup())});
    mean.add(r.speedup());
    faster += r.speedup() >= 1 + margin;
  }
  std::string out = table.str();
  out += fmt::format("{} over the fastest other candidate: geomean {:.3f} over {} shapes; faster by {:.0f}% or more at {}\n",
                     schedule, mean.geomean(), rows.size(), 100 * margin, faster);
  return out;
}

}  // namespace credit
