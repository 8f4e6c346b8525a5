// credit compare's arithmetic (sweep/ab_comparison): B's time over A's at the points both passed, by P, schedule and
// shape, and of each shape's best P; points passed on one side only are counted, not compared.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "sweep/ab_comparison.hpp"
#include "support/sweep_point.hpp"

namespace {

credit::SweepPoint point(const std::string& w, long long n, const std::string& s, int p, double ms,
                         credit::Disposition d = credit::Disposition::Passed) {
  return credit::test::sweep_point(w, 1024, n, s, p, ms, d);
}

}  // namespace

TEST_CASE("compare: B over A at the points both passed, grouped, and each shape's best P", "[compare]") {
  using credit::Disposition;
  const std::vector<credit::SweepPoint> a = {
      point("layernorm", 4096, "split_global", 8, 1.0),  point("layernorm", 4096, "split_global", 16, 2.0),
      point("rmsnorm", 8192, "split_global", 8, 4.0),    point("rmsnorm", 8192, "global_reread", 1, 3.0),
      point("rmsnorm", 8192, "split_global", 32, 1.0),   // B did not pass it: A only
      point("rmsnorm", 8192, "split_global", 8, 5.0),    // recorded twice: the faster median (4.0) stays
  };
  const std::vector<credit::SweepPoint> b = {
      point("layernorm", 4096, "split_global", 8, 0.5),  point("layernorm", 4096, "split_global", 16, 4.0),
      point("rmsnorm", 8192, "split_global", 8, 2.0),    point("rmsnorm", 8192, "global_reread", 1, 3.0),
      point("rmsnorm", 8192, "split_global", 32, 0.1, Disposition::Incorrect),
      point("rmsnorm", 8192, "split_global", 64, 1.0),   // B only
  };
  const credit::AbComparison c = credit::compare_ab(a, b, "");
  REQUIRE(c.points.size() == 4);
  CHECK(c.a_only == 1);
  CHECK(c.b_only == 1);
  // Ratios 0.5, 2, 0.5, 1: geomean (0.5 * 2 * 0.5 * 1)^(1/4).
  CHECK(std::abs(c.geomean - std::pow(0.5, 0.25)) < 1e-12);
  CHECK(c.min == 0.5);
  CHECK(c.max == 2.0);
  REQUIRE(c.by_p.size() == 3);  // P = 1, 8, 16 (labels in numeric order)
  CHECK(c.by_p[0].label == "1");
  CHECK(c.by_p[1].label == "8");
  CHECK(c.by_p[1].points == 2);
  CHECK(std::abs(c.by_p[1].geomean - 0.5) < 1e-12);
  CHECK(c.by_p[2].label == "16");
  REQUIRE(c.by_schedule.size() == 2);
  CHECK(c.by_schedule[0].label == "global_reread");
  CHECK(c.by_schedule[0].geomean == 1.0);
  REQUIRE(c.by_shape.size() == 2);
  CHECK(c.by_shape[0].label == "1024x4096");
  // Best P: layernorm split_global A 1.0 (P=8), B 0.5 (P=8) -> 0.5; rmsnorm split_global 4.0 -> 2.0 -> 0.5;
  // rmsnorm global_reread 1.
  CHECK(c.best_p.points == 3);
  CHECK(std::abs(c.best_p.geomean - std::pow(0.25, 1.0 / 3)) < 1e-12);
  // The largest best-P ratio is global_reread's 1, though a single point (layernorm P = 16) lost 2x.
  CHECK(c.best_p_max == 1.0);
  CHECK(c.best_p_max_at == "rmsnorm 1024x8192 global_reread");

  const credit::AbComparison only = credit::compare_ab(a, b, "global_reread");
  CHECK(only.points.size() == 1);
  CHECK(only.geomean == 1.0);

  const std::string text = credit::format_ab(c);
  CHECK(text.find("points passed in both: 4 (A only 1, B only 1)") != std::string::npos);
  CHECK(text.find("over 3, max 1.000 (rmsnorm 1024x8192 global_reread)") != std::string::npos);
  CHECK(text.find("B slowest against A: layernorm 1024x4096 split_global P=16 2.000;") != std::string::npos);
}

TEST_CASE("compare: each side's builds named by their recorded definitions", "[compare]") {
  credit::Meta option, plain, old;
  option.build_defines = "CREDIT_CLUSTER_POLICY=2";
  old.build_defines_recorded = false;
  CHECK(credit::describe_builds({option, option}) == "CREDIT_CLUSTER_POLICY=2");
  CHECK(credit::describe_builds({plain}) == "the defaults");
  CHECK(credit::describe_builds({plain, old, option, plain}) == "the defaults | not recorded | CREDIT_CLUSTER_POLICY=2");
  CHECK(credit::describe_builds({}).empty());
}

TEST_CASE("compare: no point passed on both sides is an error, not an empty summary", "[compare]") {
  const std::vector<credit::SweepPoint> a = {point("layernorm", 4096, "staged", 1, 1.0)};
  const std::vector<credit::SweepPoint> b = {point("layernorm", 4096, "staged", 1, 1.0, credit::Disposition::Failed)};
  CHECK_THROWS_AS(credit::compare_ab(a, b, ""), std::invalid_argument);
  CHECK_THROWS_AS(credit::compare_ab(a, a, "cluster"), std::invalid_argument);
}

TEST_CASE("compare --versus: a schedule's best P at each shape against the fastest other kernel", "[compare]") {
  const std::vector<credit::SweepPoint> pts = {
      point("layernorm", 4096, "megakernel", 8, 2.0),       point("layernorm", 4096, "megakernel", 16, 1.0),
      point("layernorm", 4096, "split_global", 8, 1.5),     point("layernorm", 4096, "global_reread", 1, 1.2),
      point("layernorm", 4096, "split_partial", 16, 0.5),   // a schedule this build lacks: no candidate, skipped
      point("rmsnorm", 4096, "megakernel", 8, 3.0),         point("rmsnorm", 4096, "split_global", 16, 2.0),
      point("rmsnorm", 4096, "split_global", 32, 0.5, credit::Disposition::Incorrect),  // not counted
      point("lars", 4096, "global_reread", 1, 1.0),         // the schedule did not run here: left out
  };
  const auto rows = credit::versus_others(pts, "megakernel");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].workload == "layernorm");
  CHECK(rows[0].p == 16);
  CHECK(rows[0].other == "global_reread P=1");
  CHECK(std::abs(rows[0].speedup() - 1.2) < 1e-12);
  CHECK(rows[1].other == "split_global P=16");
  CHECK(std::abs(rows[1].speedup() - 2.0 / 3.0) < 1e-12);
  const std::string text = credit::format_versus("megakernel", rows, 0.03);
  CHECK(text.find("faster by 3% or more at 1\n") != std::string::npos);
  CHECK_THROWS_AS(credit::versus_others(pts, "cluster"), std::invalid_argument);
}

TEST_CASE("compare: a ladder's rungs are told apart by variant and submission", "[compare]") {
  credit::SweepPoint direct = point("rms_softmax", 131072, "megakernel", 16, 20.0);
  direct.variant = "row";
  credit::SweepPoint graph = direct;
  graph.submission = "graph";
  graph.time_ms.median = 10.0;
  credit::SweepPoint graph_b = graph;
  graph_b.time_ms.median = 5.0;
  credit::SweepPoint direct_b = direct;
  direct_b.time_ms.median = 20.0;
  const credit::AbComparison c = credit::compare_ab({direct, graph}, {direct_b, graph_b}, "megakernel");
  REQUIRE(c.points.size() == 2);  // not merged into one point by their faster time
  CHECK(c.points[0].schedule == "megakernel+row");
  CHECK(c.points[1].schedule == "megakernel+row@graph");
  CHECK(c.min == 0.5);
  CHECK(c.max == 1.0);
}
