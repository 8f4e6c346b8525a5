// credit tune as a library call (tuning/tune_shape.hpp): the time model's shortlist at one shape,
// each candidate checked against the CPU reference and timed, the fastest passed one kept.
#include <string>

#include <filesystem>

#include "catch.hpp"
#include "credit/autotune.hpp"
#include "support/temp_dir.hpp"
#include "tuning/tuning_cache.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/timing.hpp"
#include "io/json_records.hpp"
#include "model/time_model.hpp"
#include "tuning/tune_shape.hpp"

using namespace credit;

TEST_CASE("tune: the shortlist checked and timed at the shape, the fastest passed one kept", "[gpu][tune]") {
  const DeviceInfo dev = gpu::use_device(0);
  // An H200 calibration with the fitted constants ranks the candidates (its kernels' resources are this build's).
  const ResultsFile file = read_results(std::string(CREDIT_FIXTURE_DIR) + "/h200-calibration-with-model.json");
  REQUIRE(file.calibration);
  const Calibration& cal = *file.calibration;
  gpu::Timer timer(dev);
  for (const auto& [name, m, n] : {std::tuple{"lars", 44LL, 4250LL}, std::tuple{"softmax_bwd", 300LL, 50257LL},
                                   std::tuple{"quant_int8", 3LL, 1000LL}}) {
    INFO(name << " " << m << "x" << n);
    const WorkloadInfo& w = find_workload(name);
    const TuneResult r = tune_shape(w, m, n, cal, model::params_of(cal), 3, 0.1, dev, timer,
                                    gpu::TimingOptions{1, 5, true}, 1.0, 20261203);
    const auto listed = model::shortlist(r.prediction, w.figures, 3, 0.1);
    REQUIRE(r.timed.size() == listed.size());
    REQUIRE(r.timed.size() >= 3);
    for (std::size_t i = 0; i < listed.size(); ++i) {
      INFO(listed[i].schedule << " P=" << listed[i].p << ": " << r.timed[i].reason);
      CHECK(r.timed[i].schedule == listed[i].schedule);
      CHECK(r.timed[i].p == listed[i].p);
      CHECK(r.timed[i].disposition == Disposition::Passed);  // checked against the CPU reference first
      CHECK(r.timed[i].time_ms.median > 0);
    }
    REQUIRE(r.fastest.has_value());
    for (const SweepPoint& p : r.timed) CHECK(r.timed[*r.fastest].time_ms.median <= p.time_ms.median);
  }
  CHECK_THROWS_AS(tune_shape(find_workload("lars"), 44, 4250, cal, model::params_of(cal), 0, 0.1, dev, timer,
                             gpu::TimingOptions{1, 5, true}, 1.0, 1),
                  std::invalid_argument);
}

TEST_CASE("tune: split_global on the shortlist is checked and timed like any candidate", "[gpu][tune]") {
  const DeviceInfo dev = gpu::use_device(0);
  // A calibration of a build with split_global (another H200): at 16 rows of 2^19 its model shortlists
  // split_global at P = 64 and 128 beside partial_one.
  const ResultsFile file = read_results(std::string(CREDIT_FIXTURE_DIR) + "/h200-calibration-split-global.json");
  REQUIRE(file.calibration);
  const Calibration& cal = *file.calibration;
  gpu::Timer timer(dev);
  const WorkloadInfo& w = find_workload("lars");
  const TuneResult r = tune_shape(w, 16, 1 << 19, cal, model::params_of(cal), 3, 0.1, dev, timer,
                                  gpu::TimingOptions{1, 5, true}, 1.0, 20261205);
  const auto listed = model::shortlist(r.prediction, w.figures, 3, 0.1);
  REQUIRE(r.timed.size() == listed.size());
  int split_global = 0;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    INFO(listed[i].schedule << " P=" << listed[i].p << ": " << r.timed[i].reason);
    CHECK(r.timed[i].schedule == listed[i].schedule);
    CHECK(r.timed[i].p == listed[i].p);
    CHECK(r.timed[i].disposition == Disposition::Passed);
    CHECK(r.timed[i].time_ms.median > 0);
    split_global += listed[i].schedule == "split_global";
  }
  CHECK(split_global >= 1);
  REQUIRE(r.fastest.has_value());
  for (const SweepPoint& p : r.timed) CHECK(r.timed[*r.fastest].time_ms.median <= p.time_ms.median);
}

TEST_CASE("Autotuner: off, the model answers; on, a shape is tuned once, recorded, then answered by the cache",
          "[gpu][tune]") {
  const DeviceInfo dev = gpu::use_device(0);
  credit::test::TempDir dir("credit-autotune");
  // The H200 fixture's calibration as this GPU's (the Autotuner takes a calibration of the GPU it runs on).
  ResultsFile file = read_results(std::string(CREDIT_FIXTURE_DIR) + "/h200-calibration-with-model.json");
  REQUIRE(file.calibration);
  file.calibration->device = dev;
  file.device = dev;
  const auto cal_file = dir.path / "calibration.json";
  write_results(cal_file, file);
  AutotuneOptions opt;
  opt.calibration = cal_file.string();
  opt.tuning_file = (dir.path / "gpu.tuning.json").string();
  opt.samples = 3;
  opt.warmup = 1;
  {
    Autotuner off(opt);
    CHECK_FALSE(off.select("lars", 44, 4250).measured);
    CHECK(off.tuned_count() == 0);
    CHECK_FALSE(std::filesystem::exists(opt.tuning_file));
  }
  opt.tune_on_first_use = true;
  Autotuner first(opt);
  const Selection tuned = first.select("lars", 44, 4250);
  CHECK(tuned.measured);
  CHECK(tuned.time_ms > 0);
  CHECK(first.tuned_count() == 1);
  const Selection again = first.select("lars", 44, 4250);
  CHECK(first.tuned_count() == 1);
  CHECK(again.schedule == tuned.schedule);
  const auto entries = load_tuning(opt.tuning_file);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].pick.schedule == schedule_name(tuned.schedule));
  CHECK(entries[0].pick.p == tuned.p);
  CHECK(entries[0].gpu_uuid == dev.uuid);
  Autotuner second(opt);  // a new process, in effect: the cache answers, nothing is tuned
  const Selection cached = second.select("lars", 44, 4250);
  CHECK(cached.measured);
  CHECK(cached.schedule == tuned.schedule);
  CHECK(cached.p == tuned.p);
  CHECK(second.tuned_count() == 0);
  CHECK_THROWS_AS(second.select("lars", 0, 4250), std::invalid_argument);
}
