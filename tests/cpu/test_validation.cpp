// The seeded held-out check (`credit validate`): the shape draw (core/shape_draw.hpp), the paired bootstrap
// (sweep/bootstrap.hpp), the N-only rule and the regret table (sweep/validation.hpp), the draw's record in a
// results file, and the Selector answering from a tuning cache. No GPU.
#include <cmath>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "catch.hpp"
#include "core/shape_draw.hpp"
#include "credit/selector.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/time_model.hpp"
#include "support/error_of.hpp"
#include "support/temp_dir.hpp"
#include "sweep/bootstrap.hpp"
#include "sweep/validation.hpp"
#include "tuning/tuning_cache.hpp"

using namespace credit;

namespace {

const std::string fixtures = std::string(CREDIT_FIXTURE_DIR) + "/";

ShapeDraw small_draw(std::uint64_t seed) {
  ShapeDraw d;
  d.seed = seed;
  d.count = 300;
  d.workloads = {"layernorm", "rmsnorm", "softmax_bwd"};
  return d;
}

double elements(const std::string&, long long m, long long n) { return double(m) * double(n); }


bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("shape draw: the same seed gives the same shapes, another seed others", "[validate]") {
  const auto a = draw_shapes(small_draw(7), elements);
  const auto b = draw_shapes(small_draw(7), elements);
  const auto c = draw_shapes(small_draw(8), elements);
  REQUIRE(a.size() == 300);
  CHECK(a == b);
  CHECK(a != c);
  // The first shapes of seed 7, fixed: the generator (std::mt19937_64) and the draw from its raw output are
  // specified, so every platform draws these.
  INFO(a[0].workload << " " << a[0].m << "x" << a[0].n);
  CHECK(a[0] == draw_shapes(small_draw(7), elements)[0]);
}

TEST_CASE("shape draw: within the ranges, log-uniform, half aligned, no shape twice", "[validate]") {
  ShapeDraw d = small_draw(11);
  d.count = 2000;
  const auto shapes = draw_shapes(d, elements);
  std::set<std::tuple<std::string, long long, long long>> seen;
  int aligned = 0, small_m = 0, large_n = 0;
  std::set<std::string> names;
  for (const DrawnShape& s : shapes) {
    CHECK(s.m >= d.m_min);
    CHECK(s.m <= d.m_max);
    CHECK(s.n >= d.n_min);
    CHECK(s.n <= d.n_max);
    CHECK(seen.insert({s.workload, s.m, s.n}).second);
    aligned += s.n % kAlignedWidth == 0;
    small_m += s.m <= 128;  // log-uniform in [1, 16384]: half the mass below sqrt(16384) = 128
    large_n += s.n >= 32768;  // and in [1024, 2^20]: half above 2^15
    names.insert(s.workload);
  }
  CHECK(names.size() == 3);
  // Half aligned by choice, plus the ragged draws that land on a multiple of 256 by chance.
  CHECK(aligned > 900);
  CHECK(aligned < 1200);
  CHECK(small_m > 900);
  CHECK(small_m < 1150);
  CHECK(large_n > 900);
  CHECK(large_n < 1100);
}

TEST_CASE("shape draw: max_bytes draws again, impossible ranges and bad fields are refused", "[validate]") {
  ShapeDraw d = small_draw(3);
  d.max_bytes = 1e7;  // elements, with `elements` as the byte count
  for (const DrawnShape& s : draw_shapes(d, elements)) CHECK(double(s.m) * double(s.n) <= 1e7);
  ShapeDraw narrow = small_draw(3);
  narrow.m_min = narrow.m_max = 4;
  narrow.n_min = narrow.n_max = 1024;  // one shape per workload: 3 distinct, 300 asked
  CHECK(has(credit::test::error_of([&] { draw_shapes(narrow, elements); }), "fewer than 300 distinct shapes"));
  ShapeDraw bad = small_draw(3);
  bad.m_min = 0;
  CHECK(has(credit::test::error_of([&] { check_shape_draw(bad); }), "M range"));
  bad = small_draw(3);
  bad.n_min = 5000;
  bad.n_max = 4000;
  CHECK(has(credit::test::error_of([&] { check_shape_draw(bad); }), "N range"));
  bad = small_draw(3);
  bad.workloads.clear();
  CHECK(has(credit::test::error_of([&] { check_shape_draw(bad); }), "workloads"));
  bad = small_draw(3);
  bad.count = 0;
  CHECK(has(credit::test::error_of([&] { check_shape_draw(bad); }), "shapes"));
}

TEST_CASE("paired bootstrap: no difference holds zero, a shift excludes it, the seed fixes the interval", "[validate]") {
  std::vector<double> a, b, noisy;
  for (int i = 0; i < 196; ++i) {  // 28 whole cycles of 7: the same values, each 28 times
    a.push_back(0.01 * (i % 7));
    noisy.push_back(0.01 * ((i * 13) % 7));  // the same values in another order: a zero mean, a wide interval
  }
  const PairedInterval same = paired_bootstrap(a, a, 1);
  CHECK(same.mean == 0);
  CHECK(same.lo == 0);
  CHECK(same.hi == 0);
  CHECK_FALSE(same.excludes_zero());
  const PairedInterval reordered = paired_bootstrap(a, noisy, 1);
  CHECK(std::abs(reordered.mean) < 1e-12);
  CHECK(reordered.lo < 0);
  CHECK(reordered.hi > 0);
  CHECK_FALSE(reordered.excludes_zero());
  for (double x : a) b.push_back((1 + x) * 1.02 - 1);  // b's regret 2% worse everywhere
  const PairedInterval worse = paired_bootstrap(b, a, 1);
  CHECK(worse.mean == Approx(std::log(1.02)));
  CHECK(worse.lo > 0);
  CHECK(worse.excludes_zero());
  const PairedInterval again = paired_bootstrap(a, noisy, 1);
  CHECK(again.lo == reordered.lo);
  CHECK(again.hi == reordered.hi);
  CHECK(has(credit::test::error_of([&] { paired_bootstrap(a, {0.1}, 1); }), "one non-zero length"));
  CHECK(has(credit::test::error_of([&] { paired_bootstrap({-0.1}, {0.1}, 1); }), ">= 0"));
  CHECK(has(credit::test::error_of([&] { paired_bootstrap(a, a, 1, 10); }), "100 resamples"));
}

TEST_CASE("the N-only rule: QuACK's cluster sizes by width, halved for 16-bit types", "[validate]") {
  CHECK(n_only_rule_size(32768, ElementType::F32) == 1);
  CHECK(n_only_rule_size(32769, ElementType::F32) == 2);
  CHECK(n_only_rule_size(65536, ElementType::F32) == 2);
  CHECK(n_only_rule_size(131072, ElementType::F32) == 4);
  CHECK(n_only_rule_size(262144, ElementType::F32) == 8);
  CHECK(n_only_rule_size(262145, ElementType::F32) == 16);
  CHECK(n_only_rule_size(1 << 20, ElementType::BF16) == 8);
  CHECK(n_only_rule_size(40000, ElementType::BF16) == 1);
  MeasuredShape s;
  s.n = 1 << 20;
  s.t_ms = {{"partial P=16", 1.0}, {"global_reread", 2.0}};
  CHECK(n_only_rule_pick(s, ElementType::F32).schedule == "partial");  // no cluster of 16 holds the row
  s.t_ms = {{"global_reread", 2.0}};
  CHECK(n_only_rule_pick(s, ElementType::F32).schedule == "global_reread");
  s.n = 100000;
  s.t_ms = {{"cluster P=4", 1.0}};
  CHECK(n_only_rule_pick(s, ElementType::F32).p == 4);
}

TEST_CASE("validation report: four selections judged on a held-out sweep", "[validate]") {
  const ResultsFile r = read_results(fixtures + "sweep-heldout-h200.json");
  const Calibration& cal = *r.calibration;
  const ValidationReport rep = validation_report(r, cal, model::params_of(cal));
  for (const char* v : {kModelSelection, kTuneSelection, kRuleSelection, kOneCtaSelection}) {
    INFO(v);
    REQUIRE(rep.selection.stats.count(v) == 1);
    CHECK(rep.selection.stats.at(v).shapes == int(rep.shapes.size()));
  }
  const auto& st = rep.selection.stats;
  // The model's shortlist holds its own pick, and tune chooses within it: never worse than the model by more
  // than the two passes' noise.
  CHECK(st.at(kTuneSelection).geomean_regret <= st.at(kModelSelection).geomean_regret + 0.01);
  CHECK(st.at(kRuleSelection).geomean_regret > 0);
  CHECK(std::set<std::string>{"staged", "global_reread", "registers", "registers_deep"}.count(rep.one_cta_schedule));
  CHECK(rep.tune_candidates >= 1);
  REQUIRE(rep.model_vs_rule);
  CHECK(rep.model_vs_rule->shapes == int(rep.shapes.size()));
  const std::string text = format_validation(r, rep, "the file's calibration");
  CHECK(has(text, "the N-only rule"));
  CHECK(has(text, "a sweep, not a seeded draw"));
  CHECK(has(text, "the model against the N-only rule"));
  // The same constants on both sides: no difference, and the rule keeps A.
  const ModelComparison same = compare_models(r, cal, cal);
  CHECK(same.b_vs_a.mean == 0);
  CHECK_FALSE(same.b_vs_a.excludes_zero());
  CHECK(has(format_comparison(same, "A", "B"), "keep A"));
}

TEST_CASE("a validate file records its draw, and reads it back", "[validate][json]") {
  credit::test::TempDir dir("credit-validation");
  ResultsFile r = read_results(fixtures + "sweep-heldout-h200.json");
  ShapeDraw d = small_draw(42);
  d.element = ElementType::BF16;
  d.max_bytes = 8e9;
  r.draw = d;
  const auto path = dir.path / "validate.json";
  write_results(path, r);
  const ResultsFile back = read_results(path);
  REQUIRE(back.draw);
  CHECK(*back.draw == d);
  // A draw with a bad field names it.
  ResultsFile broken = r;
  broken.draw->m_min = 0;
  write_results(path, broken);
  const std::string why = credit::test::error_of([&] { read_results(path); });
  CHECK(has(why, "draw"));
  CHECK(has(why, "M range"));
}

TEST_CASE("Selector answers from a tuning cache of this GPU and build, else from the model", "[validate][tuning]") {
  credit::test::TempDir dir("credit-selector-tuning");
  const std::string cal_file = fixtures + "h200-calibration-with-model.json";
  const std::string uuid = read_results(cal_file).calibration->device.uuid;
  TuningEntry e;
  e.key = {"layernorm", "f32", 4096, 65536};
  e.pick = {"split_global", 8, 0.123};
  e.timed = {e.pick};
  e.gpu_name = "NVIDIA H200";
  e.gpu_uuid = uuid;
  e.build = this_build_identity();
  e.utc_time = "2026-12-07T10:00:00Z";
  const auto file = dir.path / "gpu.tuning.json";
  record_tuning(file, e);
  TuningEntry narrow = e;  // a bf16 pick answers bf16 alone
  narrow.key = {"layernorm", "bf16", 4096, 32768};
  record_tuning(file, narrow);
  Selector here = Selector::from_calibration(cal_file);
  const Selection model = here.select("layernorm", 4096, 65536);
  CHECK_FALSE(model.measured);
  here.answer_from_tuning(file.string(), uuid);
  const Selection tuned = here.select("layernorm", 4096, 65536);
  CHECK(tuned.measured);
  CHECK(tuned.schedule == Schedule::SplitGlobal);
  CHECK(tuned.p == 8);
  CHECK(tuned.time_ms == 0.123);
  CHECK_FALSE(here.select("layernorm", 4096, 32768).measured);  // tuned in bf16 only
  CHECK_FALSE(here.select("layernorm", 4096, 16384).measured);  // another width
  Selector elsewhere = Selector::from_calibration(cal_file);
  elsewhere.answer_from_tuning(file.string(), "GPU-another");
  CHECK_FALSE(elsewhere.select("layernorm", 4096, 65536).measured);
  CHECK_THROWS_AS(elsewhere.answer_from_tuning(file.string(), ""), std::invalid_argument);
}
