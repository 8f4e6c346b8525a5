#include "sweep/model_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/workload_registry.hpp"
#include "io/csv.hpp"
#include "model/fit.hpp"
#include "model/time_model.hpp"

namespace credit {

namespace {

const StaticFigures* figures_or_null(const std::string& name) {
  const WorkloadInfo* w = declared_workload(name);
  return w ? &w->figures : nullptr;
}

}  // namespace

PickTable picks_for(const ResultsFile& sweep, const Calibration& cal, const TimeModelParams& params) {
  PickTable t;
  for (const auto& p : sweep.predictions)
    if (p.model == "paper" || p.model == "refined") t[p.model][shape_key(p.workload, p.m, p.n)] = pick_of(p);
  for (const auto& s : measured_shapes(sweep)) {
    const StaticFigures* f = figures_or_null(s.workload);
    if (!f) continue;
    const std::string key = shape_key(s.workload, s.m, s.n);
    const Prediction pr = model::predict_times(*f, s.workload, cal, params, s.m, s.n);
    t["time"][key] = pick_of(pr);
    std::vector<Pick> listed;
    for (const auto& c : model::shortlist(pr, *f, model::kDefaultShortlist, model::kDefaultShortlistBand))
      listed.push_back({c.schedule, c.p, model::is_cluster_candidate(c.schedule)});
    if (const auto tuned = tuned_pick(s, listed)) t[kTunedVariant][key] = *tuned;
  }
  return t;
}

ModelFit fit_time_model(const std::vector<const ResultsFile*>& sweeps, const Calibration& cal,
                        const std::vector<std::string>& leave_out, const std::vector<model::HeldConstant>& held,
                        const std::optional<TimeModelParams>& start, model::FitLoss loss, bool own_calibrations) {
  std::vector<model::FitSample> samples;
  ModelFit f;
  for (const ResultsFile* r : sweeps)
    for (auto& s : model::fit_samples(*r, figures_or_null)) {
      if (std::find(leave_out.begin(), leave_out.end(), s.workload) != leave_out.end()) continue;
      if (own_calibrations) {
        if (!r->calibration) throw std::invalid_argument("a sweep records no calibration of its own");
        s.calibration = &*r->calibration;
      }
      // A kernel the calibration has no resources for cannot be predicted with it: not a model error.
      if (!model::calibration_covers(s.calibration ? *s.calibration : cal, s.workload, s.schedule, s.n, s.p)) {
        ++f.uncovered;
        continue;
      }
      samples.push_back(s);
    }
  if (samples.empty()) throw std::invalid_argument("the sweeps hold no passed staged, global_reread or cluster point");
  f.params = model::fit_params(samples, cal, start ? *start : model::fit_start(), held, 4000, loss);
  f.rms_log_error = model::rms_log_error(samples, cal, f.params);
  f.samples = samples.size();
  return f;
}

std::vector<Residual> residuals(const ResultsFile& sweep, const std::string& source, const Calibration& cal,
                                const TimeModelParams& params) {
  std::vector<Residual> out;
  const model::CopyLine copy = model::copy_line(cal.copies);
  for (const auto& s : model::fit_samples(sweep, figures_or_null)) {
    const auto c = model::candidate_time(*s.figures, s.workload, cal, params, copy, s.schedule, s.p, s.m, s.n);
    out.push_back({source, s.workload, s.schedule, s.m, s.n, s.p, s.t_ms, c.legal ? c.t_ms : 0.0, c.ctas_per_sm, c.waves});
  }
  return out;
}

double rms_log_error(const std::vector<Residual>& rows) {
  if (rows.empty()) return 0;
  double sq = 0;
  for (const auto& r : rows) sq += r.predicted_ms > 0 ? std::pow(std::log(r.predicted_ms / r.measured_ms), 2) : 4.0;
  return std::sqrt(sq / double(rows.size()));
}

std::string residuals_csv(const std::vector<Residual>& rows) {
  std::string out = "source,workload,m,n,schedule,p,measured_ms,predicted_ms,predicted_over_measured,ctas_per_sm,waves\n";
  for (const auto& r : rows)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.source), r.workload, r.m, r.n, r.schedule, r.p, r.measured_ms,
                       r.predicted_ms, r.predicted_ms > 0 ? fmt::format("{:.4f}", r.predicted_ms / r.measured_ms) : "",
                       r.ctas_per_sm, r.waves);
  return out;
}

namespace {

VariantStats judge_workload(const std::vector<const ResultsFile*>& files, const std::string& w, const Calibration& cal,
                            const TimeModelParams& params) {
  std::vector<MeasuredShape> shapes;
  for (const ResultsFile* r : files)
    for (auto& s : measured_shapes(*r))
      if (s.workload == w) shapes.push_back(s);
  PickTable t;
  for (const auto& s : shapes)
    t["time"][shape_key(s.workload, s.m, s.n)] =
        pick_of(model::predict_times(*figures_or_null(w), w, cal, params, s.m, s.n));
  return judge_selection(shapes, t).stats["time"];
}

}  // namespace

std::vector<Fold> leave_one_workload_out(const std::vector<const ResultsFile*>& sweeps, const Calibration& cal,
                                         const std::vector<const ResultsFile*>& judged,
                                         const std::vector<model::HeldConstant>& held,
                                         const std::optional<TimeModelParams>& start, model::FitLoss loss) {
  std::vector<std::string> names;
  for (const ResultsFile* r : sweeps)
    for (const auto& s : measured_shapes(*r))
      if (figures_or_null(s.workload) && std::find(names.begin(), names.end(), s.workload) == names.end())
        names.push_back(s.workload);
  std::vector<Fold> folds;
  for (const auto& w : names) {
    Fold f;
    f.workload = w;
    f.fit = fit_time_model(sweeps, cal, {w}, held, start, loss);
    std::vector<model::FitSample> held;
    for (const ResultsFile* r : sweeps)
      for (auto& s : model::fit_samples(*r, figures_or_null))
        if (s.workload == w) held.push_back(s);
    f.rms_log_error = model::rms_log_error(held, cal, f.fit.params);
    f.stats = judge_workload(sweeps, w, cal, f.fit.params);
    if (!judged.empty()) f.judged = judge_workload(judged, w, cal, f.fit.params);
    folds.push_back(f);
  }
  return folds;
}

VariantStats pool(const std::vector<SelectionReport>& reports, const std::string& variant) {
  VariantStats p;
  double logs = 0;
  for (const auto& r : reports) {
    const auto it = r.stats.find(variant);
    if (it == r.stats.end()) continue;
    const VariantStats& s = it->second;
    logs += std::log1p(s.geomean_regret) * s.shapes;
    p.shapes += s.shapes;
    if (p.worst.empty() || s.max_regret > p.max_regret) {
      p.max_regret = s.max_regret;
      p.worst = s.worst;
    }
    p.over_5pct += s.over_5pct;
    p.right += s.right;
    p.judged += s.judged;
    p.right_outside += s.right_outside;
    p.judged_outside += s.judged_outside;
    p.wrong_within_2pct += s.wrong_within_2pct;
    p.wrong_2_to_5pct += s.wrong_2_to_5pct;
    p.wrong_over_5pct += s.wrong_over_5pct;
    p.n_star_exact += s.n_star_exact;
    p.n_star_groups += s.n_star_groups;
    p.n_star_workloads_exact += s.n_star_workloads_exact;
    p.n_star_workloads += s.n_star_workloads;
    p.unmeasured_picks += s.unmeasured_picks;
  }
  p.geomean_regret = p.shapes ? std::expm1(logs / p.shapes) : 0;
  return p;
}

std::string format_stats_line(const std::string& name, const VariantStats& s) {
  auto pct = [](int a, int b) { return b ? fmt::format("{}/{} ({:.1f}%)", a, b, 100.0 * a / b) : std::string("-"); };
  return fmt::format("{:<10} {:>6} {:>9.2f}% {:>8.1f}% {:>6} {:>18} {:>18} {:>10} {:>11}   worst: {}\n", name,
                     s.shapes, 100 * s.geomean_regret, 100 * s.max_regret, s.over_5pct, pct(s.right, s.judged),
                     pct(s.right_outside, s.judged_outside), fmt::format("{}/{}", s.n_star_exact, s.n_star_groups),
                     fmt::format("{}/{}", s.n_star_workloads_exact, s.n_star_workloads), s.worst);
}

std::string format_misses_by_margin(const std::map<std::string, VariantStats>& stats) {
  std::string out;
  for (const auto& [name, s] : stats)
    if (s.judged_outside > 0)
      out += fmt::format("{}{}: {} within 2%, {} at 2-5%, {} over 5%", out.empty() ? "" : "; ", name,
                         s.wrong_within_2pct, s.wrong_2_to_5pct, s.wrong_over_5pct);
  return out.empty() ? out
                     : "wrong verdicts outside the noise band, by the measured margin between the fastest cluster "
                       "and the faster one-CTA kernel: " + out + "\n";
}

std::string format_selection_stats(const SelectionReport& rep) {
  std::string out = fmt::format("{:<10} {:>6} {:>10} {:>9} {:>6} {:>18} {:>18} {:>10} {:>11}\n", "model", "shapes",
                                "regret gm", "max", ">5%", "accuracy", "outside noise", "N* exact", "N* all M");
  for (const auto& [name, s] : rep.stats) out += format_stats_line(name, s);
  out += fmt::format("noise band: {} of {} shapes timed twice are ties (the passes disagree on whether a cluster "
                     "wins)\n", rep.ties, rep.with_repeat);
  out += format_misses_by_margin(rep.stats);
  return out;
}

}  // namespace credit
