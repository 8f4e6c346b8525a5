#include "sweep/model_vs_measured.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/workload_registry.hpp"
#include "model/time_model.hpp"

namespace credit {

namespace {

struct Percentiles {
  double median = 0, p10 = 0, p90 = 0;
};
Percentiles spread_of(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v[v.size() / 10], v[9 * v.size() / 10]};
}

}  // namespace

std::vector<Residual> schedule_residuals(const ResultsFile& file, const std::string& source, const Calibration& cal,
                                         const TimeModelParams& params, const std::string& schedule) {
  if (!model::is_modelled_schedule(schedule))
    throw std::invalid_argument("the time model has no term for " + schedule);
  std::vector<Residual> out;
  const model::CopyLine copy = model::copy_line(cal.copies);
  for (const SweepPoint& pt : file.points) {
    if (pt.schedule != schedule || pt.disposition != Disposition::Passed || !(pt.time_ms.median > 0)) continue;
    const WorkloadInfo* w = declared_workload(pt.workload);
    if (!w) continue;  // a workload this build does not declare
    const auto c = model::candidate_time(w->figures, w->name, cal, params, copy, schedule, pt.p, pt.m, pt.n);
    out.push_back({source, pt.workload, schedule, pt.m, pt.n, pt.p, pt.time_ms.median, c.legal ? c.t_ms : 0.0,
                   c.ctas_per_sm, c.waves});
  }
  return out;
}

std::vector<ShapeRatios> ratios_by_shape(const std::vector<Residual>& rows) {
  std::map<std::pair<long long, long long>, std::pair<std::vector<double>, std::size_t>> by;
  for (const Residual& r : rows) {
    auto& [ratios, illegal] = by[{r.m, r.n}];
    if (r.predicted_ms > 0) ratios.push_back(r.measured_ms / r.predicted_ms);
    else ++illegal;
  }
  std::vector<ShapeRatios> out;
  for (const auto& [shape, v] : by) {
    const Percentiles s = spread_of(v.first);
    out.push_back({shape.first, shape.second, v.first.size(), v.second, s.median, s.p10, s.p90});
  }
  return out;
}

std::string format_model_vs_measured(const std::string& schedule, const std::vector<Residual>& rows) {
  std::string out = fmt::format("\n{}: measured / predicted kernel time, per shape (points: workloads x P)\n", schedule);
  std::vector<double> all;
  std::size_t illegal = 0;
  for (const ShapeRatios& s : ratios_by_shape(rows)) {
    out += fmt::format("  M={:>6} N={:>8}  n={:>4}  median {:.3f}  p10 {:.3f}  p90 {:.3f}", s.m, s.n, s.points, s.median,
                       s.p10, s.p90);
    out += s.illegal ? fmt::format("  ({} the model calls illegal)\n", s.illegal) : "\n";
    illegal += s.illegal;
  }
  std::vector<Residual> legal;
  for (const Residual& r : rows)
    if (r.predicted_ms > 0) {
      all.push_back(r.measured_ms / r.predicted_ms);
      legal.push_back(r);
    }
  const Percentiles s = spread_of(all);
  out += fmt::format("  all: n={}  median {:.3f}  p10 {:.3f}  p90 {:.3f}  RMS log error {:.3f}{}\n", all.size(), s.median,
                     s.p10, s.p90, rms_log_error(legal),
                     illegal ? fmt::format(" ({} points the model calls illegal, left out)", illegal) : "");
  return out;
}

}  // namespace credit
