// credit::Autotuner: the tuning cache, tuning on first use when asked, else the time model.
#include "credit/autotune.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>

#include "calibration/calibration_for_device.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/timing.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/time_model.hpp"
#include "tuning/tune_shape.hpp"
#include "tuning/tuning_cache.hpp"

#include <cuda_runtime.h>

namespace credit {

namespace {

// The inputs of a first-use tuning: fixed, so that a rerun measures the same data.
constexpr std::uint64_t kTuneSeed = 20261129;

Log stderr_log() {
  return {{}, [](const std::string& s) { std::fprintf(stderr, "credit: %s\n", s.c_str()); }};
}

}  // namespace

struct Autotuner::State {
  AutotuneOptions options;
  DeviceInfo dev;
  Calibration cal;
  std::string tuning_file;
  std::optional<Selector> selector;
  std::optional<gpu::Timer> timer;  // made on the first tuning
  double copy_gbps = 0;
  std::map<std::tuple<std::string, long long, long long>, Selection> answered;
  int tuned = 0;
};

Autotuner::Autotuner(AutotuneOptions options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) throw std::runtime_error("Autotuner: no CUDA device");
  s.dev = gpu::use_device(device);
  if (!s.options.calibration.empty()) {
    const ResultsFile r = read_results(s.options.calibration, {"calibration"});
    if (!r.calibration || r.calibration->device.name != s.dev.name)
      throw std::runtime_error("Autotuner: " + s.options.calibration + " is no calibration of " + s.dev.name);
    s.cal = *r.calibration;
  } else {
    s.cal = calibration_for_device(s.dev, {"credit::Autotuner"}, stderr_log());
  }
  s.tuning_file = s.options.tuning_file.empty() ? tuning_cache_path(s.dev.uuid).string() : s.options.tuning_file;
  Selector selector = Selector::from_calibration_record(
      s.cal, s.options.calibration.empty() ? "this GPU's calibration" : s.options.calibration);
  selector.answer_from_tuning(s.tuning_file, s.dev.uuid);
  s.selector.emplace(std::move(selector));
}

Autotuner::~Autotuner() = default;

int Autotuner::tuned_count() const { return state_->tuned; }

Selection Autotuner::select(std::string_view workload, long long m, long long n) {
  State& s = *state_;
  const WorkloadInfo& w = find_workload(workload);
  const auto key = std::make_tuple(w.name, m, n);
  if (const auto it = s.answered.find(key); it != s.answered.end()) return it->second;
  Selection pick = s.selector->select(workload, m, n);  // throws for bad input before any GPU work
  if (!pick.measured && s.options.tune_on_first_use) {
    if (!s.timer) {
      s.timer.emplace(s.dev);
      s.copy_gbps = gpu::measure_copy_bandwidth(*s.timer).best();
    }
    const TuneResult r = tune_shape(w, m, n, s.cal, model::params_of(s.cal), model::kDefaultShortlist,
                                    model::kDefaultShortlistBand, s.dev, *s.timer,
                                    gpu::TimingOptions{s.options.warmup, s.options.samples, true}, s.copy_gbps, kTuneSeed);
    if (!r.fastest)
      throw std::runtime_error("Autotuner: no shortlisted candidate passed its check at " + w.name + " " +
                               std::to_string(m) + "x" + std::to_string(n));
    ++s.tuned;
    if (const auto entry = tuning_entry(w, r, s.dev, make_meta(0, nullptr))) {
      try {
        record_tuning(s.tuning_file, *entry, stderr_log());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "credit: the tuned pick is not recorded in the tuning cache: %s\n", e.what());
      }
    }
    const SweepPoint& f = r.timed[*r.fastest];
    pick = {parse_schedule(f.schedule), f.p, f.time_ms.median, true};
  }
  s.answered.emplace(key, pick);
  return pick;
}

}  // namespace credit
