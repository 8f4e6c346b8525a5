#include "sweep/validation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "model/time_model.hpp"
#include "core/workload_registry.hpp"
#include "sweep/model_selection.hpp"

namespace credit {

namespace {

// The interval's resampling seed: fixed, so that a file's report reads the same every time.
constexpr std::uint64_t kBootstrapSeed = 20261207;

bool measured(const MeasuredShape& s, const std::string& schedule, int p) {
  return s.t_ms.count(candidate_label(schedule, p)) > 0;
}

// Per-shape regrets of two variants over the shapes where both were measured.
std::optional<PairedInterval> paired(const SelectionReport& rep, const std::string& a, const std::string& b) {
  std::vector<double> ra, rb;
  for (const SelectionRow& row : rep.rows) {
    const auto ia = row.regret.find(a), ib = row.regret.find(b);
    if (ia != row.regret.end() && ib != row.regret.end()) {
      ra.push_back(ia->second);
      rb.push_back(ib->second);
    }
  }
  if (ra.empty()) return std::nullopt;
  return paired_bootstrap(ra, rb, kBootstrapSeed);
}

ElementType element_of_file(const ResultsFile& file, const std::vector<MeasuredShape>& shapes) {
  return file.draw ? file.draw->element : element_of_name(shapes.front().workload);
}

std::string interval_text(const PairedInterval& iv) {
  return fmt::format("{:+.2f} points ({:.0f}% interval {:+.2f} ... {:+.2f}, {} shapes)", 100 * iv.mean,
                     100 * iv.level, 100 * iv.lo, 100 * iv.hi, iv.shapes);
}

}  // namespace

int n_only_rule_size(long long n, ElementType t) {
  const int p = n <= 32768 ? 1 : n <= 65536 ? 2 : n <= 131072 ? 4 : n <= 262144 ? 8 : 16;
  return element_bytes(t) == 2 ? std::max(1, p / 2) : p;
}

Pick n_only_rule_pick(const MeasuredShape& s, ElementType t) {
  const int p = n_only_rule_size(s.n, t);
  if (p == 1) return {"staged", 1, false};
  if (measured(s, "cluster", p)) return {"cluster", p, true};
  if (measured(s, "partial", p)) return {"partial", p, true};
  return {"global_reread", 1, false};
}

ValidationReport validation_report(const ResultsFile& file, const Calibration& cal, const TimeModelParams& params) {
  ValidationReport rep;
  rep.shapes = measured_shapes(file);
  if (rep.shapes.empty()) throw std::invalid_argument("the file holds no measured shape");
  const ElementType t = element_of_file(file, rep.shapes);
  const PickTable model = picks_for(file, cal, params);
  PickTable table;
  if (const auto it = model.find("time"); it != model.end()) table[kModelSelection] = it->second;
  if (const auto it = model.find(kTunedVariant); it != model.end()) table[kTuneSelection] = it->second;
  double timed = 0;
  for (const MeasuredShape& s : rep.shapes) {
    const std::string key = shape_key(s.workload, s.m, s.n);
    table[kRuleSelection][key] = n_only_rule_pick(s, t);
    const StaticFigures* f = declared_workload(s.workload) ? &declared_workload(s.workload)->figures : nullptr;
    if (f)
      timed += double(model::shortlist(model::predict_times(*f, s.workload, cal, params, s.m, s.n), *f,
                                       model::kDefaultShortlist, model::kDefaultShortlistBand).size());
  }
  rep.tune_candidates = timed / double(rep.shapes.size());
  // The single one-CTA schedule with the lowest regret geomean here (global_reread where it did not run).
  double best = INFINITY;
  for (const char* name : {"staged", "global_reread", "registers", "registers_deep"}) {
    std::map<std::string, Pick> picks;
    for (const MeasuredShape& s : rep.shapes)
      picks[shape_key(s.workload, s.m, s.n)] = measured(s, name, 1) ? Pick{name, 1, false} : Pick{"global_reread", 1, false};
    const SelectionReport one = judge_selection(rep.shapes, {{kOneCtaSelection, picks}});
    const double g = one.stats.at(kOneCtaSelection).geomean_regret;
    if (g < best) {
      best = g;
      rep.one_cta_schedule = name;
      table[kOneCtaSelection] = picks;
    }
  }
  rep.selection = judge_selection(rep.shapes, table);
  rep.model_vs_rule = paired(rep.selection, kModelSelection, kRuleSelection);
  return rep;
}

std::string format_validation(const ResultsFile& file, const ValidationReport& rep, const std::string& calibration_label) {
  std::string out;
  if (file.draw) {
    const ShapeDraw& d = *file.draw;
    out += fmt::format("seeded shapes: seed {}, {} drawn ({} measured), {}, M {} ... {}, N {} ... {} (log-uniform, "
                       "half ragged), {} workload(s)\n",
                       d.seed, d.count, rep.shapes.size(), element_type_name(d.element), d.m_min, d.m_max, d.n_min,
                       d.n_max, d.workloads.size());
  } else {
    out += fmt::format("{} measured shapes (a sweep, not a seeded draw)\n", rep.shapes.size());
  }
  out += fmt::format("measured on {} by build {}{}, {}; the time model from {}\n", file.device.name, file.meta.git_sha,
                     file.meta.build_defines.empty() ? "" : " (" + file.meta.build_defines + ")", file.meta.utc_time,
                     calibration_label);
  out += fmt::format("{:<34} {:>6} {:>10} {:>8} {:>5} {:>22}   worst pick\n", "selection", "shapes", "regret gm",
                     "worst", ">5%", "right outside noise");
  const std::pair<const char*, std::string> rows[] = {
      {kModelSelection, "the time model (credit predict)"},
      {kTuneSelection, fmt::format("tune: shortlist of {:.2f} timed", rep.tune_candidates)},
      {kRuleSelection, "the N-only rule"},
      {kOneCtaSelection, "one-CTA: " + rep.one_cta_schedule + (rep.one_cta_schedule == "global_reread" ? "" : "+")}};
  for (const auto& [key, label] : rows) {
    const auto it = rep.selection.stats.find(key);
    if (it == rep.selection.stats.end()) continue;
    const VariantStats& s = it->second;
    const std::string right = s.judged_outside ? fmt::format("{}/{} ({:.1f}%)", s.right_outside, s.judged_outside,
                                                             100.0 * s.right_outside / s.judged_outside)
                                               : "-";
    out += fmt::format("{:<34} {:>6} {:>9.2f}% {:>7.1f}% {:>5} {:>22}   {}\n", label, s.shapes, 100 * s.geomean_regret,
                       100 * s.max_regret, s.over_5pct, right, s.worst);
  }
  if (rep.one_cta_schedule != "global_reread")
    out += fmt::format("(one-CTA: {0}+ is {0} where it runs, global_reread elsewhere)\n", rep.one_cta_schedule);
  out += fmt::format("noise band: {} of {} shapes timed twice are ties (the passes disagree on whether a cluster wins)\n",
                     rep.selection.ties, rep.selection.with_repeat);
  if (rep.model_vs_rule) {
    const PairedInterval& iv = *rep.model_vs_rule;
    out += "the model against the N-only rule, ln(1 + regret) paired by shape: " + interval_text(iv) + ": " +
           (iv.hi < 0 ? "the model is better" : iv.lo > 0 ? "the rule is better" : "no difference outside the interval") +
           "\n";
  }
  return out;
}

ModelComparison compare_models(const ResultsFile& file, const Calibration& a, const Calibration& b) {
  const std::vector<MeasuredShape> shapes = measured_shapes(file);
  if (shapes.empty()) throw std::invalid_argument("the file holds no measured shape");
  PickTable table;
  table["A"] = picks_for(file, a, model::params_of(a))["time"];
  table["B"] = picks_for(file, b, model::params_of(b))["time"];
  const SelectionReport rep = judge_selection(shapes, table);
  const auto iv = paired(rep, "B", "A");
  if (!iv) throw std::invalid_argument("no shape where both models' picks were measured");
  return {rep.stats.at("A"), rep.stats.at("B"), *iv};
}

std::string format_comparison(const ModelComparison& c, const std::string& a_label, const std::string& b_label) {
  std::string out;
  for (const auto& [label, s] : {std::pair{a_label, c.a}, std::pair{b_label, c.b}})
    out += fmt::format("{}: regret geomean {:.2f}%, worst {:.1f}%, {} shape(s) over 5%\n", label, 100 * s.geomean_regret,
                       100 * s.max_regret, s.over_5pct);
  const PairedInterval& iv = c.b_vs_a;
  out += fmt::format("B against A, ln(1 + regret) paired by shape: {}: {}\n", interval_text(iv),
                     iv.hi < 0   ? "B is better outside the interval: adopt B (on a seed nothing was tuned on)"
                     : iv.lo > 0 ? "B is worse: keep A"
                                 : "the interval holds zero: keep A");
  return out;
}

}  // namespace credit
