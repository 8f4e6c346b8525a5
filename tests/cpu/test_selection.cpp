// The selection judge (sweep/selection.hpp) on synthetic sweeps: regret, accuracy, the noise band, N*,
// register variants a build lacks, the shortlist and the tuned variant.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "model/fit.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"
#include "support/time_model_fixture.hpp"
#include "sweep/model_selection.hpp"
#include "sweep/selection.hpp"

using namespace credit;
using namespace credit::model;
using namespace credit::test;

TEST_CASE("selection regret, accuracy, the noise band and N*", "[model][selection]") {
  ResultsFile r;
  r.kind = "sweep";
  // Shape A: cluster P=4 fastest (1.0), staged 1.5: a cluster wins in both passes.
  r.points = {point("w", 64, 1000, "staged", 1, 1.5, 1.5), point("w", 64, 1000, "cluster", 4, 1.0, 1.0),
              point("w", 64, 1000, "cluster", 2, 1.2, 1.2),
              // Shape B: global_reread 1.00 vs cluster 1.01, the second pass reverses them: a tie.
              point("w", 64, 500, "global_reread", 1, 1.00, 1.02), point("w", 64, 500, "cluster", 2, 1.01, 1.00)};
  const auto shapes = measured_shapes(r);
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].fastest == "cluster P=4");
  CHECK(shapes[0].cluster_wins);
  CHECK_FALSE(shapes[0].tie);
  CHECK(shapes[1].tie);
  PickTable t;
  t["m"][shape_key("w", 64, 1000)] = {"cluster", 2, true};  // regret 20%
  t["m"][shape_key("w", 64, 500)] = {"cluster", 2, true};   // regret 1%, wrong verdict inside the band
  const SelectionReport rep = judge_selection(shapes, t);
  const VariantStats& s = rep.stats.at("m");
  CHECK(s.shapes == 2);
  CHECK(near(s.max_regret, 0.2));
  CHECK(near(s.geomean_regret, std::sqrt(1.2 * 1.01) - 1));
  CHECK(s.over_5pct == 1);
  CHECK(s.right == 1);
  CHECK(s.judged == 2);
  CHECK(s.right_outside == 1);
  CHECK(s.judged_outside == 1);
  CHECK(rep.ties == 1);
  // N* of (w, M=64): measured 1000 (B is won by global_reread in pass 1), predicted 500.
  CHECK(s.n_star_groups == 1);
  CHECK(s.n_star_exact == 0);
  CHECK(s.n_star_workloads == 1);
  CHECK(s.n_star_workloads_exact == 0);
  // A pick the sweep did not measure is counted, not judged.
  t["m"][shape_key("w", 64, 1000)] = {"cluster", 16, true};
  CHECK(judge_selection(shapes, t).stats.at("m").unmeasured_picks == 1);
}

TEST_CASE("wrong verdicts outside the noise band are counted by the measured margin", "[model][selection]") {
  ResultsFile r;
  r.kind = "sweep";
  // Three shapes where a cluster loses, both passes agreeing, by 1%, 3% and 20%; one where it wins by 10%.
  const double loss[] = {1.01, 1.03, 1.2};
  for (int i = 0; i < 3; ++i) {
    r.points.push_back(point("w", 64, 1000 * (i + 1), "staged", 1, 1.0, 1.0));
    r.points.push_back(point("w", 64, 1000 * (i + 1), "cluster", 2, loss[i], loss[i]));
  }
  r.points.push_back(point("w", 64, 8000, "staged", 1, 1.1, 1.1));
  r.points.push_back(point("w", 64, 8000, "cluster", 2, 1.0, 1.0));
  const auto shapes = measured_shapes(r);
  REQUIRE(shapes.size() == 4);
  CHECK(std::abs(shapes[1].margin - std::log(1.03)) < 1e-12);
  PickTable t;
  for (int i = 0; i < 3; ++i) t["m"][shape_key("w", 64, 1000 * (i + 1))] = {"cluster", 2, true};  // all wrong
  t["m"][shape_key("w", 64, 8000)] = {"staged", 1, false};                                        // wrong too
  const VariantStats s = judge_selection(shapes, t).stats.at("m");
  CHECK(s.judged_outside == 4);
  CHECK(s.right_outside == 0);
  CHECK(s.wrong_within_2pct == 1);
  CHECK(s.wrong_2_to_5pct == 1);
  CHECK(s.wrong_over_5pct == 2);
  const std::string line = format_misses_by_margin({{"m", s}});
  CHECK(line.find("m: 1 within 2%, 1 at 2-5%, 2 over 5%") != std::string::npos);
  // A tie (the passes disagree) is no miss: the 1% shape with its second pass reversed.
  r.points[1].repeat_ms = 0.99;
  CHECK(judge_selection(measured_shapes(r), t).stats.at("m").wrong_within_2pct == 0);
}

TEST_CASE("N* per workload: exact only where it is exact at every M", "[model][selection]") {
  ResultsFile r;
  r.kind = "sweep";
  // Workload a: a cluster wins at N = 2000 only, at M = 64 and M = 128. Workload b: at 2000, M = 64 only.
  for (const char* w : {"a", "b"})
    for (long long m : {64LL, 128LL}) {
      const bool b_128 = std::string(w) == "b" && m == 128;
      r.points.push_back(point(w, m, 1000, "staged", 1, 1.0, 1.0));
      r.points.push_back(point(w, m, 1000, "cluster", 2, 1.5, 1.5));
      r.points.push_back(point(w, m, 2000, "staged", 1, b_128 ? 1.5 : 2.0, b_128 ? 1.5 : 2.0));
      r.points.push_back(point(w, m, 2000, "cluster", 2, 1.8, 1.8));
    }
  const auto shapes = measured_shapes(r);
  PickTable t;  // predicts a cluster from N = 2000 everywhere: wrong for (b, 128) only
  for (const auto& s : shapes) t["m"][shape_key(s.workload, s.m, s.n)] = s.n == 2000 ? Pick{"cluster", 2, true}
                                                                                    : Pick{"staged", 1, false};
  const VariantStats s = judge_selection(shapes, t).stats.at("m");
  CHECK(s.n_star_groups == 4);
  CHECK(s.n_star_exact == 3);
  CHECK(s.n_star_workloads == 2);
  CHECK(s.n_star_workloads_exact == 1);
}

TEST_CASE("points of a register variant this build lacks are neither candidates nor fitted", "[model][selection]") {
  // A sweep recorded when registers_deep also held 4096-element rows (a 128 x 8 variant since
  // removed): that point was the fastest, but no longer a candidate of this build.
  ResultsFile r;
  r.kind = "sweep";
  r.points = {point("layernorm", 256, 4096, "registers", 1, 1.1), point("layernorm", 256, 4096, "registers_deep", 1, 1.0),
              point("layernorm", 256, 4096, "staged", 1, 1.3), point("layernorm", 256, 8192, "registers_deep", 1, 2.0),
              point("layernorm", 256, 8192, "registers", 1, 2.2)};
  const auto shapes = measured_shapes(r);
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].fastest == "registers");       // 4096: the deep point is left out
  CHECK(shapes[1].fastest == "registers_deep");  // 8192: the family holds it
  const auto samples = fit_samples(r, [](const std::string& w) { return &find_workload(w).figures; });
  CHECK(samples.size() == 4);
  CHECK(std::none_of(samples.begin(), samples.end(),
                     [](const FitSample& f) { return f.schedule == "registers_deep" && f.n == 4096; }));
}

TEST_CASE("the shortlist: the k fastest legal candidates and any within the band, fastest first", "[model][time]") {
  const Calibration c = h200_like();
  const TimeModelParams prm = h200_params();
  const WorkloadInfo& w = find_workload("softmax_bwd");
  const Prediction pr = predict_times(w.figures, w.name, c, prm, 4096, 8192);
  std::vector<double> legal;
  for (const auto& x : pr.candidates)
    if (x.legal) legal.push_back(x.t_ms);
  std::sort(legal.begin(), legal.end());
  REQUIRE(legal.size() >= 6);
  const auto three = shortlist(pr, w.figures, 3, 0.0);
  REQUIRE(three.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(three[i].t_ms == legal[i]);
  CHECK(three[0].schedule == pr.pick_schedule);
  CHECK(three[0].p == pr.pick_p);
  for (const auto& x : three) CHECK(x.legal);
  // The band adds every candidate within it of the fastest, and no other.
  const double band = legal[4] / legal[0] - 1 + 1e-12;
  const auto wide = shortlist(pr, w.figures, 1, band);
  CHECK(wide.size() == std::size_t(std::count_if(legal.begin(), legal.end(), [&](double t) { return t <= legal[0] * (1 + band); })));
  CHECK(wide.size() >= 5);
  CHECK(shortlist(pr, w.figures, 100, 0.0).size() == legal.size());
  CHECK(shortlist(pr, w.figures, 0, 1.0).empty());
  // A workload the structural rules reject: no cluster on its shortlist, whatever the times.
  int rejected = 0;
  for (const auto& nc : negative_controls()) {
    if (!structural_rejection(nc.figures)) continue;
    ++rejected;
    const auto listed = shortlist(pr, nc.figures, 100, 1.0);
    CHECK_FALSE(listed.empty());
    for (const auto& x : listed) CHECK_FALSE(is_cluster_candidate(x.schedule));
  }
  CHECK(rejected > 0);
}

TEST_CASE("the tuned variant: the shortlisted candidate the second pass times fastest, else the first", "[model][selection]") {
  ResultsFile r;
  r.kind = "sweep";
  // The first pass has cluster P=4 fastest; the second puts staged first among the shortlisted two.
  r.points = {point("w", 64, 1000, "staged", 1, 1.10, 0.95), point("w", 64, 1000, "cluster", 4, 1.00, 1.00),
              point("w", 64, 1000, "cluster", 2, 1.20, 1.20)};
  const auto shapes = measured_shapes(r);
  REQUIRE(shapes.size() == 1);
  const std::vector<Pick> listed{{"cluster", 4, true}, {"staged", 1, false}};
  auto k = tuned_pick(shapes[0], listed);
  REQUIRE(k.has_value());
  CHECK(k->schedule == "staged");  // chosen by the independent pass, so it pays the first pass's 10%
  PickTable t;
  t[kTunedVariant][shape_key("w", 64, 1000)] = *k;
  CHECK(near(judge_selection(shapes, t).stats.at(kTunedVariant).max_regret, 0.10));
  // Without a second pass: the first pass decides.
  for (auto& p : r.points) p.repeat_ms = 0;
  k = tuned_pick(measured_shapes(r)[0], listed);
  REQUIRE(k.has_value());
  CHECK(k->schedule == "cluster");
  CHECK(k->p == 4);
  // Candidates the sweep did not measure are passed over; none measured: no pick.
  CHECK(tuned_pick(measured_shapes(r)[0], {{"cluster", 16, true}, {"cluster", 2, true}})->p == 2);
  CHECK_FALSE(tuned_pick(measured_shapes(r)[0], {{"cluster", 16, true}}).has_value());
}
