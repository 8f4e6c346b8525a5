// The time model's predictions at a few shapes of two recorded calibrations against literal values: the model's own
// at these inputs (computed at 353e8ca, 17 significant digits), so that a change meant to leave the model's numbers
// alone (a refactor, a term removed where it is off) is seen to leave every time, pick and shortlist as they are.
// The shapes reach every kind of term: one-CTA kernels with column parameters and SM work, register kernels at a
// first wave, clusters at several CTAs per SM, partial retention of two planes, split_global, bf16, and the kernel
// probes of the partial, register and clustered kernels.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "io/json_records.hpp"
#include "model/time_model.hpp"
#include "support/time_model_fixture.hpp"

using namespace credit;
using namespace credit::model;

namespace {

struct Recorded {
  const char* schedule;
  int p;
  double ms;
};

struct RecordedShape {
  const char* calibration;  // a file of tests/fixtures
  bool own_constants;       // the file's constants, else h200_params()
  const char* workload;
  long long m, n;
  std::vector<Recorded> times;  // some of the candidates
  std::vector<std::string> shortlist;  // the default shortlist, "schedule/P", fastest (the pick) first
};

const char* const kH200 = "h200-calibration-with-model.json";
const char* const kH100 = "h100-calibration-bf16.json";  // no constants of its own: h200_params()

const std::vector<RecordedShape> kRecorded = {
    {kH200, false, "layernorm", 4096, 32768,
     {{"staged", 1, 0.47683093033357915}, {"global_reread", 1, 0.43937883562382907}, {"cluster", 4, 0.29894467923027762},
      {"cluster", 16, 0.53708568698512782}, {"cluster_registers", 4, 0.38576453469190192}},
     {"cluster/4", "cluster/2", "cluster/8"}},
    {kH200, false, "wvar_bwd", 333, 1048576,
     {{"global_reread", 1, 2.881731819710414}, {"partial", 16, 3.0122437153814841}, {"partial_one", 16, 2.8625122120507651}},
     {"partial_one/16", "global_reread/1", "partial/16"}},
    {kH200, false, "quant_int8", 16, 7168,
     {{"staged", 1, 0.0077286362742696665}, {"registers", 1, 0.006568107031224367},
      {"cluster", 2, 0.0075173416253697519}, {"cluster_registers", 4, 0.0065728829435669264}},
     {"registers/1", "cluster_registers/4", "registers_deep/1", "cluster_registers/2", "cluster_registers/8",
      "global_reread/1", "cluster_registers/16"}},
    {kH200, true, "layernorm", 4096, 32768, {{"staged", 1, 0.47685042407667277}, {"cluster", 4, 0.29894293390394527}},
     {"cluster/4", "cluster/2", "cluster/8"}},
    {kH100, false, "layernorm", 333, 1048576,
     {{"global_reread", 1, 2.1726178852972429}, {"partial", 16, 1.8928751865648208},
      {"partial_one", 16, 1.9176018956822807}, {"split_global", 64, 1.3111905969444277}},
     {"split_global/64", "split_global/128", "split_global/32"}},
    {kH100, false, "layernorm@bf16", 4096, 102400, {{"staged", 1, 0.87047654440119271}, {"cluster", 4, 0.55957590713258465}},
     {"cluster/4", "cluster/2", "cluster/8"}},
};

std::vector<std::string> shortlist_names(const Prediction& pr, const StaticFigures& f) {
  std::vector<std::string> names;
  for (const auto& c : shortlist(pr, f, kDefaultShortlist, kDefaultShortlistBand))
    names.push_back(c.schedule + "/" + std::to_string(c.p));
  return names;
}

void check_recorded(const RecordedShape& s) {
  INFO(s.calibration << (s.own_constants ? " (its constants) " : " ") << s.workload << " " << s.m << " x " << s.n);
  const Calibration cal = *read_results(std::string(CREDIT_FIXTURE_DIR) + "/" + s.calibration).calibration;
  REQUIRE((!s.own_constants || cal.time_model));
  const WorkloadInfo& w = find_workload(s.workload);
  const Prediction pr = predict_times(w.figures, w.name, cal, s.own_constants ? *cal.time_model : h200_params(), s.m, s.n);
  for (const Recorded& r : s.times) {
    INFO(r.schedule << " P=" << r.p);
    const CandidateTime& c = test::cand(pr, r.schedule, r.p);
    REQUIRE(c.legal);
    CHECK(std::fabs(c.t_ms - r.ms) <= 1e-9 * r.ms);
  }
  const std::vector<std::string> names = shortlist_names(pr, w.figures);
  CHECK(names == s.shortlist);
  REQUIRE(!names.empty());
  CHECK(pr.pick_schedule + "/" + std::to_string(pr.pick_p) == names.front());
}

}  // namespace

TEST_CASE("the time model's values at recorded inputs: two calibrations, the built-in constants and a file's own", "[model][time]") {
  for (const RecordedShape& s : kRecorded) check_recorded(s);
}
