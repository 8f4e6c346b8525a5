// credit::Selector: the time model's pick from a calibration, or the measured fastest from a sweep.
#include "credit/selector.hpp"

#include "api/selector_impl.hpp"

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
#include "tuning/tuning_cache.hpp"

#include <cstdio>

namespace credit {

Selector::Selector(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Selector::Selector(Selector&&) noexcept = default;
Selector& Selector::operator=(Selector&&) noexcept = default;
Selector::~Selector() = default;

Selector Selector::from_calibration(const std::string& path) {
  ResultsFile r = read_results(path);
  if (!r.calibration) throw ResultsFileError(path, "calibration", "missing (not a calibration file)");
  return from_calibration_record(std::move(*r.calibration), path);
}

Selector Selector::from_calibration_record(Calibration cal, const std::string& source) {
  auto impl = std::make_unique<Impl>();
  impl->params = model::params_of(cal);
  impl->calibration = std::move(cal);
  impl->source = source;
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
        v.push_back({parse_schedule(pt.schedule), pt.p, pt.time_ms.median, true});
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
  if (impl_->scope) {
    const WorkloadInfo& w = find_workload(workload);
    if (m >= 1 && n >= 1) {
      const TuningKey key{w.declared, element_type_name(w.element()), m, n};
      const TuningAnswer a = lookup_nearest(impl_->tuned, key, *impl_->scope);
      if (a.entry && find_schedule(a.entry->pick.schedule))
        return {parse_schedule(a.entry->pick.schedule), a.entry->pick.p, a.entry->pick.ms, true};
    }
  }
  return shortlist(workload, m, n, 1, 0.0).front();
}

Selector& Selector::answer_from_tuning(const std::string& tuning_file, const std::string& gpu_uuid) {
  if (!impl_->calibration)
    throw std::invalid_argument("answer_from_tuning: a Selector from a sweep answers by measurement already");
  if (gpu_uuid.empty()) throw std::invalid_argument("answer_from_tuning: no GPU UUID given");
  const Log warn_on_stderr{{}, [](const std::string& s) { std::fprintf(stderr, "credit: %s\n", s.c_str()); }};
  impl_->tuned = load_tuning(tuning_file, warn_on_stderr);
  impl_->scope = TuningScope{gpu_uuid, this_build_identity(), false};
  return *this;
}

std::string Selector::tuning_cache_file(const std::string& gpu_uuid) { return tuning_cache_path(gpu_uuid).string(); }

}  // namespace credit
