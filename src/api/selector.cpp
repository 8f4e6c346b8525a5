// credit::Selector: the time model's pick from a calibration, or the measured fastest from a sweep.
#include "credit/selector.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "core/workload_registry.hpp"
#include "io/json_records.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"
#include "sweep/selection.hpp"

namespace credit {

struct Selector::Impl {
  std::optional<Calibration> calibration;  // from a calibration: the time model
  TimeModelParams params;
  std::map<std::tuple<std::string, long long, long long>, Selection> measured;  // from a sweep
  std::string source;
};

Selector::Selector(std::unique_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Selector::Selector(Selector&&) noexcept = default;
Selector& Selector::operator=(Selector&&) noexcept = default;
Selector::~Selector() = default;

Selector Selector::from_calibration(const std::string& path) {
  ResultsFile r = read_results(path);
  if (!r.calibration) throw ResultsFileError(path, "calibration", "missing (not a calibration file)");
  auto impl = std::make_unique<Impl>();
  impl->params = model::params_of(*r.calibration);
  impl->calibration = std::move(r.calibration);
  impl->source = path;
  return Selector(std::move(impl));
}

Selector Selector::from_sweep(const std::string& path) {
  const ResultsFile r = read_results(path);
  if (r.kind != "sweep") throw ResultsFileError(path, "kind", "expected a sweep, got " + r.kind);
  auto impl = std::make_unique<Impl>();
  impl->source = path;
  for (const MeasuredShape& s : measured_shapes(r))
    for (const SweepPoint& pt : r.points)  // the point behind the fastest label
      if (pt.workload == s.workload && pt.m == s.m && pt.n == s.n && pt.disposition == Disposition::Passed &&
          candidate_label(pt.schedule, pt.p) == s.fastest) {
        impl->measured[{s.workload, s.m, s.n}] = {parse_schedule(pt.schedule), pt.p, s.t_fastest};
        break;
      }
  if (impl->measured.empty()) throw ResultsFileError(path, "points", "no passed candidate to select from");
  return Selector(std::move(impl));
}

Selection Selector::select(std::string_view workload, long long m, long long n) const {
  const WorkloadInfo& w = find_workload(workload);
  if (const auto why = model::structural_rejection(w.figures))
    throw std::invalid_argument(w.name + " is rejected by rule: " + *why);
  if (m < 1 || n < 1) throw std::invalid_argument("M and N must be at least 1");
  const std::string shape = w.name + " " + std::to_string(m) + "x" + std::to_string(n);
  if (!impl_->calibration) {
    const auto it = impl_->measured.find({w.name, m, n});
    if (it == impl_->measured.end())
      throw std::invalid_argument(impl_->source + ": no measured shape " + shape);
    return it->second;
  }
  const Prediction pr = model::predict_times(w.figures, w.name, *impl_->calibration, impl_->params, m, n);
  if (pr.pick_schedule.empty()) throw std::runtime_error("no candidate schedule can run " + shape);
  return {parse_schedule(pr.pick_schedule), pr.pick_p, pr.pick_ms};
}

}  // namespace credit
