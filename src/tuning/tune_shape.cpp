#include "tuning/tune_shape.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/measure/bench.hpp"
#include "gpu/launch/device_problem.hpp"
#include "model/time_model.hpp"
#include "gpu/launch/device_fit.hpp"

namespace credit {

TuneResult tune_shape(const WorkloadInfo& w, long long m, long long n, const Calibration& cal,
                      const TimeModelParams& params, int top, double band, const DeviceInfo& dev, gpu::Timer& timer,
                      const gpu::TimingOptions& timing, double copy_gbps, std::uint64_t seed,
                      const std::function<void(const SweepPoint&)>& timed_point) {
  if (top < 1 || !(band >= 0))
    throw std::invalid_argument("tune: the shortlist needs top >= 1 and band >= 0, got top = " + std::to_string(top) +
                                ", band = " + std::to_string(band));
  TuneResult r;
  r.prediction = model::predict_times(w.figures, w.name, cal, params, m, n);  // throws for bad M, N or inputs
  const std::vector<CandidateTime> listed = model::shortlist(r.prediction, w.figures, top, band);
  if (listed.empty()) throw std::invalid_argument("no candidate schedule can run " + w.name + " " +
                                                  std::to_string(m) + "x" + std::to_string(n));
  if (const std::string why = device_memory_problem(w, m, n, dev); !why.empty()) throw std::invalid_argument(why);
  gpu::DeviceProblem prob(w, m, n, seed);
  for (const CandidateTime& c : listed) {
    r.timed.push_back(gpu::bench_point(prob, parse_schedule(c.schedule), c.p, dev, timer, timing, copy_gbps, seed));
    const SweepPoint& pt = r.timed.back();
    if (timed_point) timed_point(pt);
    if (pt.disposition == Disposition::Passed &&
        (!r.fastest || pt.time_ms.median < r.timed[*r.fastest].time_ms.median))
      r.fastest = r.timed.size() - 1;
  }
  return r;
}

std::optional<TuningEntry> tuning_entry(const WorkloadInfo& w, const TuneResult& r, const DeviceInfo& dev,
                                        const Meta& meta) {
  const bool all_passed = std::all_of(r.timed.begin(), r.timed.end(),
                                      [](const SweepPoint& p) { return p.disposition == Disposition::Passed; });
  if (!r.fastest || !all_passed) return std::nullopt;
  TuningEntry e;
  e.key = {w.declared, element_type_name(w.element()), r.prediction.m, r.prediction.n};
  for (const SweepPoint& p : r.timed) e.timed.push_back({p.schedule, p.p, p.time_ms.median});
  const SweepPoint& f = r.timed[*r.fastest];
  e.pick = {f.schedule, f.p, f.time_ms.median};
  e.gpu_name = dev.name;
  e.gpu_uuid = dev.uuid;
  e.build = {meta.git_sha, meta.build_defines};
  e.utc_time = meta.utc_time;
  return e;
}

}  // namespace credit
