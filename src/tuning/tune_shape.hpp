#pragma once
// `credit tune` as a library call: the time model ranks every candidate at one shape from the
// calibration; the shortlist it ranks fastest (model::shortlist: the `top` fastest and any within
// `band` of the fastest) is then checked against the CPU
// reference and timed at that shape, and the fastest passed candidate is kept. The model prunes,
// a measurement decides: on two held-out H200 sweeps (2026-12-03) the worst pick was 5.9-7.0% against
// 15.8-31.0% for the model's pick alone. Needs a GPU (credit_gpu).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/prediction.hpp"
#include "core/results_meta.hpp"
#include "core/sweep_point.hpp"
#include "core/workload_registry.hpp"
#include "gpu/measure/timing.hpp"
#include "model/time_model_params.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit {

struct TuneResult {
  Prediction prediction;               // every candidate's predicted time (model "time")
  std::vector<SweepPoint> timed;       // the shortlist's points, fastest predicted first
  std::optional<std::size_t> fastest;  // index in `timed` of the fastest passed point
};

// Throws std::invalid_argument for M or N < 1, a shape the device cannot hold, a calibration
// without the model's inputs, top < 1 or a negative band; never for a candidate that fails its check (its point
// says so, and it is not kept). `timed_point`, when set, sees each point as it completes.
TuneResult tune_shape(const WorkloadInfo& w, long long m, long long n, const Calibration& cal,
                      const TimeModelParams& params, int top, double band, const DeviceInfo& dev, gpu::Timer& timer,
                      const gpu::TimingOptions& timing, double copy_gbps, std::uint64_t seed,
                      const std::function<void(const SweepPoint&)>& timed_point = {});

// The tuning cache's entry of a tuned shape (the passed candidates as timed, the fastest as the pick, the GPU, the
// build of `meta`, its time); none when a shortlisted candidate failed its check or none passed: a shape with a
// failing kernel is not remembered as settled.
std::optional<TuningEntry> tuning_entry(const WorkloadInfo& w, const TuneResult& r, const DeviceInfo& dev,
                                        const Meta& meta);

}  // namespace credit
