// The time model's fit (model/fit.hpp, sweep/model_selection.hpp) on synthetic sweeps: the constants it
// recovers, its losses, the shipped constants, --hold, residuals and the points it leaves out.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "io/json_records.hpp"
#include "model/fit.hpp"
#include "model/time_model.hpp"
#include "support/time_model_fixture.hpp"
#include "sweep/model_selection.hpp"
#include "sweep/selection.hpp"

using namespace credit;
using namespace credit::model;
using namespace credit::test;

TEST_CASE("split_global's points are candidates of the selection but not samples of the shared constants' fit", "[model][fit]") {
  ResultsFile r;
  r.kind = "sweep";
  r.points = {point("lars", 335, 947000, "split_global", 128, 2.017), point("lars", 335, 947000, "global_reread", 1, 2.579),
              point("lars", 335, 947000, "partial_one", 16, 2.606)};
  const auto shapes = measured_shapes(r);
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].fastest == "split_global P=128");
  const auto samples = fit_samples(r, [](const std::string& w) { return &find_workload(w).figures; });
  CHECK(samples.size() == 2);
  CHECK(std::none_of(samples.begin(), samples.end(), [](const FitSample& f) { return f.schedule == "split_global"; }));
}

TEST_CASE("the fit recovers the constants a synthetic sweep was made with", "[model][fit]") {
  const Calibration c = h200_like();
  TimeModelParams truth = h200_params();
  truth.cta_us = 2.0;
  truth.split_cta_gbps = 35;
  truth.cluster_us = 1.2;
  truth.partial_cta_gbps = 20;
  ResultsFile r;
  r.kind = "sweep";
  const CopyLine l = copy_line(c.copies);
  for (const char* wn : {"layernorm", "wvar_bwd", "quant_int8"}) {
    const WorkloadInfo& w = find_workload(wn);
    for (long long m : {128LL, 1024LL})
      for (long long n : {2048LL, 32768LL, 131072LL, 524288LL})
        for (const auto& [s, p] : std::vector<std::pair<std::string, int>>{{"staged", 1},
                                                                           {"global_reread", 1},
                                                                           {"cluster", 2},
                                                                           {"cluster", 8},
                                                                           {"cluster", 16},
                                                                           {"partial", 16}}) {
          const CandidateTime t = candidate_time(w.figures, w.name, c, truth, l, s, p, m, n);
          if (t.legal) r.points.push_back(point(wn, m, n, s, p, t.t_ms));
        }
  }
  const auto samples = fit_samples(r, [](const std::string& n) { return &find_workload(n).figures; });
  REQUIRE(samples.size() > 40);
  CHECK(rms_log_error(samples, c, truth) < 1e-12);
  const double before = rms_log_error(samples, c, fit_start());
  const TimeModelParams fitted = fit_params(samples, c, fit_start());
  const double after = rms_log_error(samples, c, fitted);
  INFO("RMS log error before " << before << ", after " << after);
  CHECK(after < 0.2 * before);
  CHECK(after < 0.02);
  // A held constant stays at its value; the others are still fitted.
  const TimeModelParams held = fit_params(samples, c, fit_start(), {parse_held_constant("serial_share=0.25")}, 300);
  CHECK(held.serial_share == 0.25);
  CHECK(rms_log_error(samples, c, held) < before);
  // The constants set by rule come out at the start's values; the fitted ones move.
  TimeModelParams start = fit_start();
  start.work_exposed_share = 0.37;
  start.cluster_gain = 0.05;
  const TimeModelParams from_start = fit_params(samples, c, start, {}, 300);
  int fitted_moved = 0;
  for (const auto& f : kTimeModelFields) {
    INFO(f.name);
    if (is_fitted_constant(f)) fitted_moved += from_start.*f.member != start.*f.member;
    else CHECK(from_start.*f.member == start.*f.member);
  }
  CHECK(fitted_moved > 0);
  CHECK(from_start.work_exposed_share == 0.37);
}

TEST_CASE("a sample with its own calibration is predicted with it, not with the fit's", "[model][fit]") {
  // Sweeps of two machines (fit-model --own-calibrations): each point timed against its own machine's inputs.
  const Calibration a = h200_like();
  Calibration b = a;
  for (auto& c : b.copies) c.ms = 4e-3 + (c.ms - 4e-3) * 1.25;  // another machine: a slower copy
  const TimeModelParams p = h200_params();
  ResultsFile r;
  r.kind = "sweep";
  const CopyLine lb = copy_line(b.copies);
  for (long long n : {4096LL, 32768LL, 131072LL})
    for (const auto& [s, q] : std::vector<std::pair<std::string, int>>{{"staged", 1}, {"cluster", 4}}) {
      const CandidateTime t = candidate_time(find_workload("quant_int8").figures, "quant_int8", b, p, lb, s, q, 1024, n);
      if (t.legal) r.points.push_back(point("quant_int8", 1024, n, s, q, t.t_ms));
    }
  auto samples = fit_samples(r, [](const std::string& n) { return &find_workload(n).figures; });
  REQUIRE(samples.size() >= 4);
  CHECK(rms_log_error(samples, b, p) < 1e-12);  // the times are b's
  const double with_a = rms_log_error(samples, a, p);
  CHECK(with_a > 0.01);
  for (auto& s : samples) s.calibration = &b;
  CHECK(rms_log_error(samples, a, p) < 1e-12);  // each sample's own calibration wins over the fit's
  CHECK(selection_loss(samples, a, p) < 1e-12);
}

TEST_CASE("the regret loss scores constants by their picks, and a fit on it lowers it", "[model][fit]") {
  const Calibration c = h200_like();
  const TimeModelParams truth = h200_params();
  ResultsFile r;
  r.kind = "sweep";
  const CopyLine l = copy_line(c.copies);
  for (const char* wn : {"layernorm", "wvar_bwd"})
    for (long long m : {256LL, 4096LL})
      for (long long n : {8192LL, 65536LL, 262144LL})
        for (const auto& [s, p] : std::vector<std::pair<std::string, int>>{
                 {"staged", 1}, {"global_reread", 1}, {"cluster", 2}, {"cluster", 4}, {"cluster", 8}, {"cluster", 16}}) {
          const CandidateTime t = candidate_time(find_workload(wn).figures, wn, c, truth, l, s, p, m, n);
          if (t.legal) r.points.push_back(point(wn, m, n, s, p, t.t_ms));
        }
  const auto samples = fit_samples(r, [](const std::string& n) { return &find_workload(n).figures; });
  REQUIRE(samples.size() > 40);
  // The measured times' own constants: every pick right, so only the soft weights of the runners-up
  // and none of the anchor (the centred loss is 0) are left.
  const double right = soft_regret_loss(samples, c, truth);
  CHECK(right >= 0);
  CHECK(selection_loss(samples, c, truth) < 1e-12);
  // Clusters given 20x their fixed cost: one-CTA kernels or larger clusters are picked where the
  // measured fastest is another cluster; the fit on the regret loss, from there, finds picks again.
  TimeModelParams slow_clusters = truth;
  slow_clusters.cluster_us *= 20;
  const double wrong = soft_regret_loss(samples, c, slow_clusters);
  INFO("soft regret, right constants " << right << ", slow clusters " << wrong);
  CHECK(wrong > right + 0.01);
  const TimeModelParams fitted = fit_params(samples, c, slow_clusters, {}, 600, FitLoss::Regret);
  CHECK(soft_regret_loss(samples, c, fitted) < 0.5 * wrong);
  CHECK(parse_fit_loss("regret") == FitLoss::Regret);
  CHECK(parse_fit_loss("centred") == FitLoss::Centred);
  try {
    parse_fit_loss("centered");
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("expected centred or regret") != std::string::npos);
  }
}

TEST_CASE("the built-in H200 constants are the shipped calibration's", "[model][fit]") {
  // An H200 calibration carrying the fitted constants: a change of h200_params() comes with a refit of this file.
  const ResultsFile r = read_results(std::string(CREDIT_FIXTURE_DIR) + "/h200-calibration-with-model.json");
  REQUIRE(r.calibration);
  REQUIRE(r.calibration->time_model);
  const TimeModelParams& f = *r.calibration->time_model;
  const TimeModelParams b = h200_params();
  // h200_params() holds them to 4 significant digits.
  auto same = [](double x, double y) { return std::fabs(x - y) <= 1e-3 * std::max(std::fabs(x), 1e-3); };
  for (const auto& field : kTimeModelFields) {  // every constant, stage_us included
    INFO(field.name);
    CHECK(same(b.*field.member, f.*field.member));
  }
}

TEST_CASE("fit-model --hold: NAME=VALUE of a time model constant, and the fit keeps it", "[model][fit]") {
  const HeldConstant h = parse_held_constant("work_exposed_share=0");
  REQUIRE(h.field != nullptr);
  CHECK(std::string(h.field->name) == "work_exposed_share");
  CHECK(h.value == 0);
  CHECK(parse_held_constant("cta_us=0.5").value == 0.5);
  for (const char* bad : {"serial_share", "nonsense=1", "serial_share=", "serial_share=abc", "serial_share=1x",
                          "serial_share=-1", "serial_share=inf", "l2_gbps=0", "=1"})
    CHECK_THROWS_AS(parse_held_constant(bad), std::invalid_argument);
}

TEST_CASE("residuals: the model's time beside the measured one, as CSV", "[model][fit]") {
  const Calibration c = h200_like();
  const TimeModelParams prm = h200_params();
  const CopyLine l = copy_line(c.copies);
  ResultsFile r;
  r.kind = "sweep";
  const WorkloadInfo& w = find_workload("layernorm");
  for (long long n : {4096LL, 65536LL}) {
    const CandidateTime t = candidate_time(w.figures, w.name, c, prm, l, "cluster", 4, 256, n);
    REQUIRE(t.legal);
    r.points.push_back(point(w.name, 256, n, "cluster", 4, 2 * t.t_ms));  // measured twice the model
  }
  r.points.push_back(point("not_declared", 256, 4096, "staged", 1, 1.0));  // left out
  const auto rows = residuals(r, "s.json", c, prm);
  REQUIRE(rows.size() == 2);
  for (const auto& x : rows) {
    CHECK(x.source == "s.json");
    CHECK(near(x.predicted_ms, 0.5 * x.measured_ms));
    CHECK(x.ctas_per_sm >= 1);
  }
  CHECK(near(rms_log_error(rows), std::log(2.0)));
  const std::string csv = residuals_csv(rows);
  CHECK(csv.rfind("source,workload,m,n,schedule,p,measured_ms,predicted_ms,predicted_over_measured,ctas_per_sm,waves\n", 0) == 0);
  CHECK(csv.find(",0.5000,") != std::string::npos);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
}

TEST_CASE("a point whose kernel the calibration lacks is left out of the fit, not counted as a model error",
          "[model][fit]") {
  Calibration c = h200_like();
  CHECK(kernel_of("partial", 1 << 20) == "cluster");
  CHECK(kernel_of("staged", 4096) == "staged");
  const int v = register_variant_for(2048, RegisterFamily::Wide);
  REQUIRE(v >= 0);
  CHECK(kernel_of("registers", 2048) == register_kernel_name(v));
  CHECK(calibration_covers(c, "layernorm", "registers", 2048));
  // A calibration written before that register kernel existed.
  c.kernels.erase(std::remove_if(c.kernels.begin(), c.kernels.end(),
                                 [&](const KernelResources& k) { return k.schedule == register_kernel_name(v); }),
                  c.kernels.end());
  CHECK_FALSE(calibration_covers(c, "layernorm", "registers", 2048));
  CHECK(calibration_covers(c, "layernorm", "staged", 2048));
  ResultsFile r;
  r.kind = "sweep";
  r.points = {point("layernorm", 256, 2048, "registers", 1, 0.004), point("layernorm", 256, 2048, "staged", 1, 0.005),
              point("layernorm", 256, 2048, "global_reread", 1, 0.006)};
  const ModelFit f = fit_time_model({&r}, c, {}, {}, h200_params());
  CHECK(f.samples == 2);
  CHECK(f.uncovered == 1);
}
