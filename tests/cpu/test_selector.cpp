// credit::Selector (include/credit/selector.hpp): from a sweep it returns the measured fastest
// candidate, from a calibration the time model's pick. No GPU.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "credit/selector.hpp"
#include "credit/workloads.hpp"
#include "io/json_records.hpp"
#include "model/time_model.hpp"
#include "support/synthetic_sweep.hpp"

using namespace credit;
namespace fs = std::filesystem;

namespace {

const std::string fixtures = std::string(CREDIT_FIXTURE_DIR) + "/";

// The fastest passed candidate per shape, found here without the library's selection code.
struct Fastest {
  std::string schedule;
  int p = 0;
  double ms = 0;
};
std::map<std::tuple<std::string, long long, long long>, Fastest> fastest_of(const ResultsFile& r) {
  std::map<std::tuple<std::string, long long, long long>, Fastest> out;
  for (const SweepPoint& pt : r.points) {
    if (pt.disposition != Disposition::Passed || !(pt.time_ms.median > 0)) continue;
    if (pt.schedule != "staged" && pt.schedule != "global_reread" && pt.schedule != "registers" &&
        pt.schedule != "cluster")
      continue;
    Fastest& f = out[{pt.workload, pt.m, pt.n}];
    if (f.ms == 0 || pt.time_ms.median < f.ms) f = {pt.schedule, pt.p, pt.time_ms.median};
  }
  return out;
}

void check_selects_fastest(const Selector& sel, const ResultsFile& r) {
  const auto want = fastest_of(r);
  REQUIRE(!want.empty());
  for (const auto& [key, f] : want) {
    const auto& [w, m, n] = key;
    INFO(w << " " << m << "x" << n);
    const Selection s = sel.select(w, m, n);
    CHECK(schedule_name(s.schedule) == f.schedule);
    CHECK(s.p == f.p);
    CHECK(s.time_ms == f.ms);
  }
}

}  // namespace

TEST_CASE("a selector from a synthetic sweep returns the measured fastest", "[selector]") {
  // 4096: a cluster wins; 8192: staged wins; 16384: global_reread (staged failed there).
  ResultsFile r = synthetic::sweep({{4096, {{"staged", 0.30}, {"global_reread", 0.40}}, {{2, 0.25}, {4, 0.20}}},
                                    {8192, {{"staged", 0.50}, {"global_reread", 0.70}}, {{2, 0.60}, {8, 0.55}}},
                                    {16384, {{"staged", 0.10}, {"global_reread", 1.20}}, {{4, 1.30}}}});
  for (auto& pt : r.points)
    if (pt.n == 16384 && pt.schedule == "staged") pt.disposition = Disposition::NotSupported;
  const fs::path path = fs::temp_directory_path() / ("credit_test_selector_" + std::to_string(::getpid()) + ".json");
  write_results(path, r);
  const Selector sel = Selector::from_sweep(path.string());
  fs::remove(path);
  const Selection a = sel.select("layernorm", 1024, 4096);
  CHECK(a.schedule == Schedule::Cluster);
  CHECK(a.p == 4);
  CHECK(a.time_ms == 0.20);
  const Selection b = sel.select("layernorm", 1024, 8192);
  CHECK(b.schedule == Schedule::Staged);
  CHECK(b.p == 1);
  const Selection c = sel.select("layernorm", 1024, 16384);
  CHECK(c.schedule == Schedule::GlobalReread);
  CHECK(c.time_ms == 1.20);
  check_selects_fastest(sel, r);
  CHECK_THROWS_AS(sel.select("layernorm", 1024, 32768), std::invalid_argument);  // not measured
  CHECK_THROWS_AS(sel.select("nosuch", 1024, 4096), std::invalid_argument);
}

// A sweep recorded by a build with schedules this one lacks (split_pipelined, split_partial) reads, and their points
// are no candidate's, however fast.
TEST_CASE("a selector skips the points of schedules this build lacks", "[selector]") {
  ResultsFile r = synthetic::sweep({{4096, {{"staged", 0.30}, {"global_reread", 0.40}}, {{2, 0.25}, {4, 0.20}}}});
  for (const char* gone : {"split_pipelined", "split_partial"}) {
    SweepPoint pt = r.points.front();
    pt.schedule = gone, pt.p = 8, pt.time_ms.median = 0.01;
    r.points.push_back(pt);
  }
  const fs::path path = fs::temp_directory_path() / ("credit_test_selector_gone_" + std::to_string(::getpid()) + ".json");
  write_results(path, r);
  const ResultsFile back = read_results(path);
  CHECK(back.points.size() == r.points.size());
  const Selector sel = Selector::from_sweep(path.string());
  fs::remove(path);
  const Selection a = sel.select("layernorm", 1024, 4096);
  CHECK(a.schedule == Schedule::Cluster);
  CHECK(a.p == 4);
}

TEST_CASE("a selector from a recorded H200 sweep returns the measured fastest at every shape", "[selector]") {
  const std::string path = fixtures + "sweep-heldout-h200.json";
  check_selects_fastest(Selector::from_sweep(path), read_results(path));
}

TEST_CASE("a selector from a calibration returns the time model's pick", "[selector]") {
  const std::string path = fixtures + "h200-calibration-with-model.json";
  const Selector sel = Selector::from_calibration(path);
  const ResultsFile r = read_results(path);
  REQUIRE(r.calibration);
  REQUIRE(r.calibration->time_model);
  for (const std::string& name : workload_names())
    for (long long n : {2048LL, 4096LL, 16384LL, 50257LL, 65536LL, 131072LL})
      for (long long m : {64LL, 4096LL}) {
        INFO(name << " " << m << "x" << n);
        const WorkloadInfo& w = find_workload(name);
        if (!model::calibration_covers(*r.calibration, name, "staged", n, 1)) {  // declared after the file
          CHECK_THROWS_AS(sel.select(name, m, n), std::invalid_argument);
          continue;
        }
        const Prediction want = model::predict_times(w.figures, w.name, *r.calibration, *r.calibration->time_model, m, n);
        const Selection got = sel.select(name, m, n);
        CHECK(schedule_name(got.schedule) == want.pick_schedule);
        CHECK(got.p == want.pick_p);
        CHECK(got.time_ms == want.pick_ms);
      }
  // The README's and the CLI tests' examples (credit predict --calibration).
  const Selection s = sel.select("softmax_bwd", 512, 50257);
  CHECK(s.schedule == Schedule::Cluster);
  CHECK(s.p == 8);
  CHECK(std::abs(s.time_ms - 0.0824) < 5e-5);
  CHECK(sel.select("wvar_bwd", 4096, 131072).p == 16);
  CHECK(sel.select("layernorm", 4096, 2048).schedule == Schedule::Registers);
}

TEST_CASE("a selector's shortlist: the time model's fastest candidates, or the measured ones of a sweep", "[selector]") {
  const Selector sel = Selector::from_calibration(fixtures + "h200-calibration-with-model.json");
  for (const auto& [w, m, n] : {std::tuple{"softmax_bwd", 512LL, 50257LL}, std::tuple{"lars", 44LL, 4250LL},
                                std::tuple{"layernorm", 4096LL, 2048LL}}) {
    INFO(w << " " << m << "x" << n);
    const auto three = sel.shortlist(w, m, n, 3, 0.0);
    REQUIRE(three.size() == 3);
    const Selection pick = sel.select(w, m, n);  // the first is the pick
    CHECK(three[0].schedule == pick.schedule);
    CHECK(three[0].p == pick.p);
    CHECK(three[0].time_ms <= three[1].time_ms);
    CHECK(three[1].time_ms <= three[2].time_ms);
    const auto banded = sel.shortlist(w, m, n);  // tune's defaults: three, and any within 10%
    CHECK(banded.size() >= 3);
    for (std::size_t i = 3; i < banded.size(); ++i) CHECK(banded[i].time_ms <= banded[0].time_ms * 1.10);
  }
  // From a sweep: the measured times, fastest first.
  const std::string path = fixtures + "sweep-heldout-h200.json";
  const Selector measured = Selector::from_sweep(path);
  const auto want = fastest_of(read_results(path));
  REQUIRE(!want.empty());
  const auto& [key, f] = *want.begin();
  const auto& [w, m, n] = key;
  const auto listed = measured.shortlist(w, m, n, 2, 0.0);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].time_ms == f.ms);
  CHECK(listed[1].time_ms >= f.ms);
  CHECK_THROWS_AS(sel.shortlist("lars", 64, 4096, 0), std::invalid_argument);
  CHECK_THROWS_AS(sel.shortlist("lars", 64, 4096, 3, -0.1), std::invalid_argument);
}

TEST_CASE("a selector refuses what it cannot answer", "[selector]") {
  const Selector sel = Selector::from_calibration(fixtures + "h200-calibration-with-model.json");
  CHECK_THROWS_AS(sel.select("row_sum", 4096, 65536), std::invalid_argument);  // a negative control
  CHECK_THROWS_AS(sel.select("layernorm", 0, 4096), std::invalid_argument);
  CHECK_THROWS_AS(Selector::from_calibration(fixtures + "nosuch.json"), std::runtime_error);
  CHECK_THROWS_AS(Selector::from_sweep(fixtures + "h200-calibration-with-model.json"), std::runtime_error);  // not a sweep
}

TEST_CASE("the public workload list and tensors follow the declarations", "[selector]") {
  CHECK(workload_names().size() == all_workloads().size());
  const WorkloadTensors ln = workload_tensors("layernorm");
  CHECK(ln.inputs == std::vector<std::string>{"x"});
  CHECK(ln.col_params == std::vector<std::string>{"gamma", "beta"});
  CHECK(ln.outputs.size() == 1);
  const WorkloadTensors q = workload_tensors("quant_int8");
  REQUIRE(q.output_is_int8.size() == 1);
  CHECK(q.output_is_int8[0]);
  CHECK(q.row_outputs.size() == 1);
  CHECK_THROWS_AS(workload_tensors("nosuch"), std::invalid_argument);
}
