#pragma once
// Seed 001's ladder at one shape (rows x n of one workload): each rung (schedule, P, direct
// launches or graph replay, megakernel barrier and Fig. 6 switches) is checked against the CPU
// execution of the declaration on every row, outputs poisoned first, by the same submission it
// is timed with; then timed by host completion, and by CUDA events (warm, no L2 flush) to
// separate GPU time from submission and synchronisation.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/sweep_point.hpp"
#include "gpu/launch/device_problem.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/measure/timing.hpp"

namespace credit::gpu {

struct Rung {
  Schedule schedule = Schedule::Megakernel;
  int p = 1;
  bool graph = false;
  LaunchOptions opt;  // megakernel only
};

// "row" or "grid" (and "auto" resolved by the launcher: see LaunchOptions), then "+reload_input"
// and/or "+spill_retained"; empty for schedules other than the megakernel.
std::string variant_name(const Rung& r);

// The floors a ladder is read against, measured the same way: an empty kernel, and a
// cudaMemcpyAsync moving the shape's compulsory bytes.
enum class Floor { EmptyKernel, Copy };

class LadderShape {
 public:
  LadderShape(const WorkloadInfo& w, long long rows, long long n, const DeviceInfo& dev, std::uint64_t seed);

  // Never throws for an illegal rung or a wrong answer: the disposition says what happened.
  SweepPoint measure(const Rung& r, int warmup, int samples);
  SweepPoint measure_floor(Floor f, bool graph, int warmup, int samples);

 private:
  SweepPoint base_point(const std::string& schedule, int p, bool graph) const;
  void time_point(SweepPoint& pt, const std::function<void()>& submit, int warmup, int samples);

  const DeviceInfo& dev_;
  DeviceProblem prob_;
  Timer timer_;
  std::vector<long long> all_rows_;
};

}  // namespace credit::gpu
