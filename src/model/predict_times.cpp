// Every candidate's predicted time at one shape, the pick and the baseline a cluster must beat; the shortlist
// `credit tune` times.
#include <algorithm>
#include <stdexcept>

#include "core/split.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"

namespace credit::model {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

std::vector<CandidateTime> shortlist(const credit::Prediction& pr, const StaticFigures& f, int k, double band) {
  const bool clusters = !structural_rejection(f);
  std::vector<CandidateTime> out;
  for (const auto& c : pr.candidates)
    if (c.legal && (clusters || !is_cluster_candidate(c.schedule))) out.push_back(c);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.t_ms < b.t_ms; });
  std::vector<double> t;
  for (const auto& c : out) t.push_back(c.t_ms);
  out.resize(shortlist_size(t, k, band));
  return out;
}

credit::Prediction predict_times(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                                 const TimeModelParams& params, long long m, long long n,
                                 const std::vector<int>& ps) {
  require(m > 0 && n > 0, "predict: M and N must be positive");
  require(!cal.kernels.empty() && !cal.cluster_slots.empty() && cal.copies.size() >= 2,
          "the calibration has no time model inputs (kernel resources, cluster slots, copies): it predates them; "
          "run `credit calibrate` with this build");
  require(cal.limits.regs_per_sm > 0, "the calibration's limits.regs_per_sm is not positive: no SM has no registers");
  const CopyLine copy = copy_line(cal.copies);
  credit::Prediction pred;
  pred.workload = workload;
  pred.model = "time";
  pred.m = m;
  pred.n = n;
  // Every candidate schedule of the traits table at each P it takes: the one-CTA kernels first.
  for (const bool one_cta : {true, false})
    for (const ScheduleTraits& t : schedule_traits())
      if (t.candidate && (t.split == Split::OneCta) == one_cta)
        for (int p : ps_to_time(t.id, ps, spread_splits()))  // (no candidate takes global splits yet but split_global)
          pred.candidates.push_back(candidate_time(f, workload, cal, params, copy, t.name, p, m, n));
  // The baseline a cluster must beat: the faster one-CTA kernel.
  const CandidateTime* base = nullptr;
  const CandidateTime* best = nullptr;
  for (const auto& c : pred.candidates) {
    if (!c.legal) continue;
    if (!is_cluster_candidate(c.schedule) && (!base || c.t_ms < base->t_ms)) base = &c;
    if (!best || c.t_ms < best->t_ms) best = &c;
  }
  if (base) {
    pred.baseline = base->schedule;
    pred.t_b_ms = base->t_ms;
  }
  if (best) {
    pred.pick_schedule = best->schedule;
    pred.pick_p = best->p;
    pred.pick_ms = best->t_ms;
    if (is_cluster_candidate(best->schedule)) pred.best_p = best->p;
  }
  const auto rejected = structural_rejection(f);
  if (rejected && best && is_cluster_candidate(best->schedule)) {  // the rules refuse clusters by construction
    pred.best_p.reset();
    pred.pick_schedule = base ? base->schedule : "";
    pred.pick_p = base ? 1 : 0;
    pred.pick_ms = base ? base->t_ms : 0;
  }
  return pred;
}

}  // namespace credit::model
