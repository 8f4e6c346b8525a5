// credit::Selector: the time model's pick from a calibration, or the measured fastest from a sweep.
#include "credit/selector.hpp"

#include <algorithm>
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
  // From a sweep: every passed candidate of each shape, fastest first.
  std::map<std::tuple<std::string, long long, long long>, std::vector<Selection>> measured;
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
  for (const SweepPoint& pt : r.points)  // the first pass's medians, as measured_shapes takes them
    if (pt.disposition == Disposition::Passed && pt.time_ms.median > 0 && model::is_candidate_point(pt.workload, pt.schedule, pt.p, pt.n)) {
      auto& v = impl->measured[{pt.workload, pt.m, pt.n}];
      if (std::none_of(v.begin(), v.end(), [&](const Selection& c) { return c.schedule == parse_schedule(pt.schedule) && c.p == pt.p; }))
        v.push_back({parse_schedule(pt.schedule), pt.p, pt.time_ms.median});
    }
  for (auto& [shape, v] : impl->measured)
    std::stable_sort(v.begin(), v.end(), [](const Selection& a, const Selection& b) { return a.time_ms < b.time_ms; });
  if (impl->measured.empty()) throw ResultsFileError(path, "points", "no passed candidate to select from");
  return Selector(std::move(impl));
}

std::vector<Selection> Selector::shortlist(std::string_view workload, long long m, long long n, int k,
                                           double band) const {
  const WorkloadInfo& w = find_workload(workload);
  if (const auto why = model::structural_rejection(w.figures))
    throw std::invalid_argument(w.name + " is rejected by rule: " + *why);
  if (m < 1 || n < 1) throw std::invalid_argument("M and N must be at least 1");
  if (k < 1 || !(band >= 0))
    throw std::invalid_argument("a shortlist needs k >= 1 and a band >= 0, got k = " + std::to_string(k) +
                                ", band = " + std::to_string(band));
  const std::string shape = w.name + " " + std::to_string(m) + "x" + std::to_string(n);
  std::vector<Selection> out;
  if (!impl_->calibration) {
    const auto it = impl_->measured.find({w.name, m, n});
    if (it == impl_->measured.end()) throw std::invalid_argument(impl_->source + ": no measured shape " + shape);
    std::vector<double> t;  // fastest first
    for (const Selection& c : it->second) t.push_back(c.time_ms);
    return {it->second.begin(), it->second.begin() + std::ptrdiff_t(model::shortlist_size(t, k, band))};
  }
  const Prediction pr = model::predict_times(w.figures, w.name, *impl_->calibration, impl_->params, m, n);
  for (const CandidateTime& c : model::shortlist(pr, w.figures, k, band)) out.push_back({parse_schedule(c.schedule), c.p, c.t_ms});
  if (out.empty()) throw std::runtime_error("no candidate schedule can run " + shape);
  return out;
}

Selection Selector::select(std::string_view workload, long long m, long long n) const {
  return shortlist(workload, m, n, 1, 0.0).front();
}

}  // namespace credit
