#pragma once
// The bench loop (credit bench) as a library call: for every workload x width x schedule x P it
// takes, check against the CPU reference, then time; a negative control no kernel runs gets its
// points refused with the reason and no device memory. The caller prints and saves each point as
// it completes (the observer), so an interrupted bench loses nothing it measured.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/results_file.hpp"
#include "core/sweep_point.hpp"
#include "core/workload_registry.hpp"
#include "credit/schedule.hpp"
#include "gpu/measure/phases.hpp"
#include "gpu/measure/timing.hpp"

namespace credit {

struct BenchPlan {
  std::vector<const WorkloadInfo*> workloads;
  std::vector<int> widths;
  long long rows = 0;  // 0: each workload's default M
  std::vector<Schedule> schedules;
  std::vector<int> ps;  // cluster sizes, or global splits: each schedule takes those its traits allow
  gpu::TimingOptions timing;
  std::uint64_t seed = 0;
  bool phases = false;  // also the phase timeline of each passed split-row point
};

struct BenchObserver {
  std::function<void(const SweepPoint&)> point;                   // appended to the results
  std::function<void(const std::vector<gpu::PhaseMark>&)> phases;  // after its point, when asked
  std::function<void(std::size_t done, std::size_t total, const WorkloadInfo&, int n)> shape_done;
};

// The M of a workload's bench shapes: the plan's rows, else the workload's default.
long long bench_rows(const BenchPlan& plan, const WorkloadInfo& w);

// Why the device cannot hold one of the plan's problems (the first found), or "" when it can.
std::string bench_plan_problem(const BenchPlan& plan, const DeviceInfo& dev);

// Appends every point of the plan to out.points (out.copy_gbps set by the caller: each point's
// share of it). Throws std::invalid_argument before any launch for a plan the device cannot hold.
void run_bench(const BenchPlan& plan, const DeviceInfo& dev, gpu::Timer& timer, ResultsFile& out,
               const BenchObserver& observe);

}  // namespace credit
