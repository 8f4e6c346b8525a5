#include "sweep/reevaluate.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/workload_registry.hpp"

namespace credit {

model::ShapeTimings timings_from(const ResultsFile& f, const std::string& workload, long long m, long long n,
                                 const std::string& baseline) {
  model::ShapeTimings t;
  t.copy_gbps = f.copy_gbps;
  bool have_base = false;
  for (const auto& p : f.points) {
    if (p.workload != workload || p.m != m || p.n != n || p.disposition != Disposition::Passed) continue;
    if (p.schedule == kControlSchedule) t.t_ctrl_ms[p.p] = p.time_ms.median;
    if (p.schedule == kCopySchedule) t.t_copy_ms = p.time_ms.median;
    if (p.schedule == baseline) {
      t.t_b_ms = p.time_ms.median;
      have_base = true;
    }
  }
  if (!have_base)
    throw MissingInput(fmt::format("no passed {} point for {} {}x{} in the file: cannot take T_B", baseline,
                                   workload, m, n));
  return t;
}

std::vector<Prediction> reevaluate(const ResultsFile& in, const std::vector<model::Variant>& variants,
                                   const std::string& only_workload) {
  if (!in.calibration) throw MissingInput("calibration: missing (the file must carry the device's calibration)");
  const model::DeviceFigures dev = model::device_figures_from(*in.calibration);
  std::vector<Prediction> out;
  std::vector<std::string> seen;  // one re-evaluation per shape, whatever variants the file holds
  for (const auto& old : in.predictions) {
    const std::string key = fmt::format("{}/{}/{}", old.workload, old.m, old.n);
    if ((!only_workload.empty() && old.workload != only_workload) ||
        std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    const WorkloadInfo& w = find_workload(old.workload);
    const model::ShapeTimings t = timings_from(in, old.workload, old.m, old.n, old.baseline);
    std::vector<int> ps;
    for (const auto& r : old.rows) ps.push_back(r.p);
    for (auto v : variants) out.push_back(model::predict(w.figures, old.workload, v, dev, old.m, old.n, t, ps));
  }
  return out;
}

}  // namespace credit
