// Seed 001's ladder on the CPU side: its config (configs/seed001.json and errors), the summary
// of a ladder file (fastest passed point per rung, floors, Fig. 6 penalties), and the retained
// contribution hook rms_softmax declares for the megakernel.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "catch.hpp"
#include "support/config_files.hpp"
#include "support/sweep_point.hpp"
#include "core/workloads/rms_softmax.hpp"
#include "sweep/ladder_summary.hpp"
#include "sweep/sweep_config.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

fs::path write_temp(const std::string& name, const std::string& text) {
  return test::write_temp("credit-test-ladder", name, text);
}

std::string error_of(const fs::path& p) { return test::config_error(p); }

SweepPoint pt(const std::string& schedule, int p, const std::string& submission, const std::string& variant,
              double us, Disposition d = Disposition::Passed, long long m = 16) {
  SweepPoint x = test::sweep_point("rms_softmax", m, 131072, schedule, p, us * 1e-3, d);
  x.submission = submission;
  x.variant = variant;
  return x;
}

}  // namespace

TEST_CASE("the seed 001 config is a host-completion ladder", "[ladder]") {
  const SweepConfig c = read_sweep_config(fs::path(CREDIT_SOURCE_DIR) / "configs" / "seed001.json");
  CHECK(c.metric == Metric::HostCompletion);
  CHECK(c.workloads == std::vector<std::string>{"rms_softmax"});
  CHECK(c.widths == std::vector<long long>{131072});
  CHECK(c.row_counts == std::vector<long long>{1, 16, 32, 64});
  CHECK(c.switch_rows == std::vector<long long>{16});
  CHECK(!c.splits.empty());
  CHECK(c.samples >= 100);
}

TEST_CASE("ladder config errors name the field", "[ladder]") {
  CHECK(error_of(write_temp("m.json", R"({"metric": "wall"})")).find("metric") != std::string::npos);
  CHECK(error_of(write_temp("s.json", R"({"splits": [8, 65]})")).find("splits[1]") != std::string::npos);
  CHECK(error_of(write_temp("z.json", R"({"splits": [0]})")).find("splits[0]") != std::string::npos);
  // Kernel sweeps take row counts too, but not beside per-workload rows; switch rows are the ladder's.
  CHECK(read_sweep_config(write_temp("r.json", R"({"row_counts": [16, 64]})")).row_counts ==
        std::vector<long long>{16, 64});
  CHECK(error_of(write_temp("r1.json", R"({"row_counts": [16], "rows": {"layernorm": 8}})")).find("rows") !=
        std::string::npos);
  CHECK(error_of(write_temp("w.json", R"({"switch_rows": [16]})")).find("switch_rows") != std::string::npos);
  CHECK(error_of(write_temp("p.json", R"({"passes": 3})")).find("passes") != std::string::npos);
  CHECK(error_of(write_temp("b.json", R"({"max_bytes": -1})")).find("max_bytes") != std::string::npos);
  CHECK(read_sweep_config(write_temp("p2.json", R"({"passes": 2, "max_bytes": 1e9})")).passes == 2);
  CHECK(error_of(write_temp("r2.json", R"({"metric": "host_completion", "row_counts": [16, 0]})"))
            .find("row_counts[1]") != std::string::npos);
  CHECK(read_sweep_config(write_temp("k.json", R"({"splits": [4, 64]})")).metric == Metric::KernelTime);
}

TEST_CASE("the ladder summary takes the fastest passed P of each rung", "[ladder]") {
  ResultsFile r;
  r.kind = "ladder";
  r.points = {pt("unfused", 16, "direct", "", 40.0), pt("unfused", 32, "direct", "", 30.0),
              pt("unfused", 64, "direct", "", 10.0, Disposition::Incorrect),  // faster but wrong: never best
              pt("unfused", 32, "graph", "", 25.0), pt("local_fusion", 32, "graph", "", 15.0),
              pt("megakernel", 32, "graph", "auto", 12.0), pt("megakernel", 16, "graph", "auto", 13.0),
              pt("megakernel", 32, "direct", "auto", 11.5), pt("cluster", 16, "direct", "", 9.0),
              pt("cluster", 16, "direct", "", 1.0, Disposition::NotSupported, 32),  // another shape
              pt("empty_kernel", 1, "direct", "", 5.0), pt("copy", 1, "graph", "", 7.0),
              // Fig. 6 at P = 32, grid barrier: base, then the switches
              pt("megakernel", 32, "graph", "grid", 12.5), pt("megakernel", 32, "graph", "grid+reload_input", 14.0),
              pt("megakernel", 32, "graph", "grid+spill_retained", 15.5)};
  r.points[2].reason = "relative L2 error";
  const auto shapes = summarize_ladder(r);
  REQUIRE(shapes.size() == 2);
  const LadderShapeSummary& s = shapes[0];  // M = 16 sorts first
  REQUIRE(s.m == 16);
  auto rung = [&](const char* label) -> const RungResult& {
    for (const auto& rr : s.rungs)
      if (std::string(rr.def->label) == label) return rr;
    FAIL("no rung " << label);
    return s.rungs.front();
  };
  const RungResult& unfused = rung("unfused (9 kernels)");
  REQUIRE(unfused.best);
  CHECK(unfused.best->p == 32);
  CHECK(unfused.passed == 2);
  CHECK(unfused.total == 3);
  REQUIRE(unfused.failures.size() == 1);
  CHECK(unfused.failures[0].find("P=64: incorrect") != std::string::npos);
  REQUIRE(rung("+ megakernel").best);
  CHECK(rung("+ megakernel").best->p == 32);
  CHECK(rung("+ megakernel").best->time_ms.median == 12.0e-3);
  CHECK(rung("megakernel, direct launch").best->time_ms.median == 11.5e-3);
  CHECK(rung("cluster (DSMEM), graph").total == 0);
  REQUIRE(s.best);
  CHECK(s.best->schedule == "cluster");
  CHECK(s.floors.count("empty_kernel/direct") == 1);
  CHECK(s.floors.count("copy/graph") == 1);
  REQUIRE(s.switches.size() == 1);
  CHECK(s.switches[0].barrier == "grid");
  CHECK(s.switches[0].p == 32);
  CHECK(std::abs(s.switches[0].extra_ms.at("reload_input") - 1.5e-3) < 1e-12);
  CHECK(std::abs(s.switches[0].extra_ms.at("spill_retained") - 3.0e-3) < 1e-12);
  // The other shape's only point did not pass: no best.
  CHECK(shapes[1].m == 32);
  CHECK(shapes[1].best == nullptr);
}

TEST_CASE("rms_softmax's h from the kept exponential equals h from x, bit for bit", "[ladder]") {
  using W = workloads::RmsSoftmax;
  static_assert(retains_contribution<W>());
  std::mt19937 rng(7);
  std::normal_distribution<float> d(0.0f, 3.0f);
  for (int i = 0; i < 10000; ++i) {
    W::Ctx c;
    c.s = std::abs(d(rng)) + 0.01f;
    c.m = d(rng) + 8.0f;
    c.inv_z = 1.0f / (std::abs(d(rng)) * 100.0f + 1.0f);
    const float x = d(rng);
    float e, from_e, from_x;
    W::contribute<1>(&x, c, &e);
    W::apply_contribution(e, c, &from_e);
    W::apply(&x, nullptr, c, &from_x);
    REQUIRE(std::memcmp(&from_e, &from_x, 4) == 0);
  }
}
