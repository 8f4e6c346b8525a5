#pragma once
// Measured DRAM traffic through Nsight Compute run as a child process. The CUPTI Range Profiler
// in-process would spare the child, but it is untried; ncu is the documented fallback
// (docs/design.md, "Measured DRAM traffic"). This binary re-runs
// itself under
//   ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum --cache-control none
//       --profile-from-start off --csv --page raw --print-units base --log-file LOG
//       credit profile-launches ... TARGET...
// --profile-from-start off profiles only what the child launches inside cudaProfilerStart/Stop:
// the probe, and per target a marker, the target's kernels and an L2 drain; not the checks and
// input generation around them. The child empties the L2 before each target itself (a drain
// outside the range) and the profiled drain after it writes back what the target left dirty, so
// its writes count. --cache-control all would flush before every kernel, drain included, and
// write those lines back unmeasured: a kernel's last writes (up to the L2's size: the issue's
// 1.05 of 1.07 GB written) would never be counted.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sweep_point.hpp"
#include "traffic/launch_plan.hpp"

namespace credit::traffic {

struct ProfilerSetup {
  std::string ncu;   // the ncu executable (find_ncu)
  std::string self;  // this binary, which the child runs (self_executable)
  int device = 0;
  std::uint64_t seed = 20261129;  // inputs of the child's problems
};

// $CREDIT_NCU when set, else ncu on PATH, else $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin.
// Throws ProfilerUnavailable saying where it looked.
std::string find_ncu();
std::string self_executable();  // /proc/self/exe

// The whole command line of the child run (argv[0] is the ncu path).
std::vector<std::string> ncu_command(const ProfilerSetup& s, const std::string& log_path,
                                     const std::string& manifest_path, const std::vector<LaunchTarget>& targets);

// Runs the targets under ncu; per target its measured bytes, or why the child did not launch it
// (e.g. its check failed). With no targets only the probe runs: a few seconds that tell whether
// the counters can be read, before a long run. Throws ProfilerUnavailable (no ncu, no
// permission) and ProfilerError (anything else that leaves a number in doubt).
struct TargetResult {
  std::optional<DramTraffic> dram;
  std::string skipped;  // why not measured, when dram is empty
};
std::vector<TargetResult> profile_targets(const ProfilerSetup& s, const std::vector<LaunchTarget>& targets);

// Kernel schedules whose launches can be profiled (not copy, control or framework points).
bool is_kernel_schedule(const std::string& schedule);

// Every passed kernel point without a measurement is profiled once and gets its `dram`. Throws
// as profile_targets.
struct MeasureSummary {
  std::size_t measured = 0;
  std::vector<std::string> skipped;  // "target: reason" of each point left without a measurement
};
MeasureSummary measure_points(std::vector<SweepPoint>& points, const ProfilerSetup& s);

}  // namespace credit::traffic
