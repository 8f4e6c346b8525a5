// Command-line options that cannot take effect, and the messages of the commands' own checks: here the arithmetic
// behind them (compare --versus against candidates only, the peer points --baselines must have, the speed-ups per
// (M, N) of run-sweep --summarize). The options themselves: tests/cli/cli_options.cmake.
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "sweep/ab_comparison.hpp"
#include "sweep/sweep_summary.hpp"
#include "support/sweep_point.hpp"

namespace {

using credit::Disposition;
using credit::SweepPoint;

SweepPoint at(const std::string& w, long long m, long long n, const std::string& s, int p, double ms,
              Disposition d = Disposition::Passed) {
  return credit::test::sweep_point(w, m, n, s, p, ms, d);
}

// The message of the std::invalid_argument f throws ("" when it throws none); Catch2 v2 and v3 name their string
// matchers differently.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

credit::Prediction paper_prediction(long long m, long long n, std::optional<int> best) {
  credit::Prediction pr;
  pr.workload = "layernorm";
  pr.m = m;
  pr.n = n;
  pr.model = "paper";
  pr.baseline = "staged";
  pr.best_p = best;
  return pr;
}

}  // namespace

TEST_CASE("compare --versus: the fastest other candidate, never a control, copy or peer point", "[cli-options]") {
  // In a sweep file the work-free control and the copy are far faster than any kernel that computes: the control
  // made every row "control P=2" and the verdict "geomean 0.074".
  const std::vector<SweepPoint> pts = {
      at("layernorm", 4096, 65536, "cluster", 8, 1.0),        at("layernorm", 4096, 65536, "cluster", 16, 1.1),
      at("layernorm", 4096, 65536, "global_reread", 1, 1.5),  at("layernorm", 4096, 65536, "staged", 1, 2.0),
      at("layernorm", 4096, 65536, "control", 8, 0.08),       at("layernorm", 4096, 65536, "copy", 1, 0.5),
      at("layernorm", 4096, 65536, "torch_compile", 1, 0.9),  at("layernorm", 4096, 65536, "triton", 1, 0.7),
      at("layernorm", 4096, 65536, "megakernel", 8, 0.6),     // a schedule the selector never picks
      at("layernorm", 4096, 65536, "split_global", 3, 0.4),   // a P split_global does not take
  };
  const auto rows = credit::versus_others(pts, "cluster");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].p == 8);
  CHECK(rows[0].other == "global_reread P=1");
  CHECK(std::abs(rows[0].speedup() - 1.5) < 1e-12);
  // Only controls and peers beside the schedule: no shape to compare, said so.
  const std::vector<SweepPoint> no_candidate = {pts[0], pts[4], pts[5], pts[6]};
  CHECK(error_of([&] { credit::versus_others(no_candidate, "cluster"); }).find("another candidate schedule") !=
        std::string::npos);
}

TEST_CASE("compare --versus: an unknown schedule is named with the known ones", "[cli-options]") {
  const std::vector<SweepPoint> pts = {at("layernorm", 4096, 65536, "cluster", 8, 1.0),
                                       at("layernorm", 4096, 65536, "staged", 1, 2.0)};
  CHECK_THROWS_AS(credit::versus_others(pts, "bogus"), std::invalid_argument);
  CHECK(error_of([&] { credit::versus_others(pts, "bogus"); })
            .find("unknown schedule 'bogus' (known: staged, global_reread, cluster") != std::string::npos);
  // A schedule that is no candidate (the megakernel) is compared with the candidates.
  const std::vector<SweepPoint> mega = {at("layernorm", 4096, 65536, "megakernel", 16, 1.0),
                                        at("layernorm", 4096, 65536, "staged", 1, 2.0)};
  CHECK(credit::versus_others(mega, "megakernel").at(0).other == "staged P=1");
  // A schedule this build lacks, recorded by another build, is unknown.
  CHECK_THROWS_AS(credit::versus_others(mega, "split_pipelined"), std::invalid_argument);
}

TEST_CASE("--baselines: the peer points a file has at the sweep's shapes", "[cli-options]") {
  credit::ResultsFile sweep, peers, other_shapes, credit_sweep;
  sweep.points = {at("layernorm", 4096, 65536, "staged", 1, 1.0), at("lars", 2048, 4096, "cluster", 2, 1.0)};
  peers.points = {at("layernorm", 4096, 65536, "torch_compile", 1, 1.0), at("layernorm", 4096, 65536, "triton", 1, 1.0),
                  at("lars", 2048, 4096, "torch_eager", 1, 1.0),
                  at("lars", 2048, 4096, "triton", 1, 1.0, Disposition::Incorrect)};  // not counted
  other_shapes.points = {at("layernorm", 2048, 65536, "torch_compile", 1, 1.0)};       // another M
  credit_sweep.points = sweep.points;                                                  // credit's own kernels
  CHECK(credit::peer_points_at_shapes(sweep, peers) == 3);
  CHECK(credit::peer_points_at_shapes(sweep, other_shapes) == 0);
  CHECK(credit::peer_points_at_shapes(sweep, credit_sweep) == 0);
  CHECK(credit::is_peer_schedule("torch_eager"));
  CHECK_FALSE(credit::is_peer_schedule("copy"));
}

TEST_CASE("run-sweep --summarize: the speed-ups per (M, N) tell the row counts apart", "[cli-options]") {
  // One (workload, N) at two row counts: per N the two pool into one geomean; per (M, N) each is its own row.
  credit::ResultsFile r;
  r.kind = "sweep";
  r.points = {at("layernorm", 64, 65536, "staged", 1, 2.0), at("layernorm", 64, 65536, "cluster", 8, 1.0),
              at("layernorm", 4096, 65536, "staged", 1, 1.0), at("layernorm", 4096, 65536, "cluster", 8, 2.0)};
  r.predictions = {paper_prediction(64, 65536, 8), paper_prediction(4096, 65536, std::nullopt)};
  const credit::SpeedupTable t = credit::speedups(r, {});
  CHECK(std::abs(t.geomean.at(65536).at("cuda") - 1.0) < 1e-12);  // sqrt(2 * 0.5)
  REQUIRE(t.shape_geomean.size() == 2);
  CHECK(std::abs(t.shape_geomean.at({64, 65536}).at("cuda") - 2.0) < 1e-12);
  CHECK(std::abs(t.shape_geomean.at({4096, 65536}).at("cuda") - 0.5) < 1e-12);
  CHECK(t.shape_count.at({64, 65536}).at("best") == 1);
}
