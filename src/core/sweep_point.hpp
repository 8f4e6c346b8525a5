#pragma once
// One measured point of a sweep, bench or ladder results file: a workload, shape and schedule, its disposition and
// times, and what it moved. Written to and read from results files (io/json_sweep_point.hpp).
// Times are milliseconds unless named otherwise.
#include <optional>
#include <string>

#include "core/run_stat.hpp"

namespace credit {

// Outcome of one measured point, as CUTLASS separates failing from being wrong.
enum class Disposition { Passed, Incorrect, Failed, Skipped, NotSupported };

// Points that are measurements of the device rather than of a kernel schedule.
inline constexpr const char* kControlSchedule = "control";  // time_ms: T_ctrl at p
inline constexpr const char* kCopySchedule = "copy";        // a copy of the shape's compulsory bytes
inline constexpr const char* kEmptyKernelSchedule = "empty_kernel";  // ladder floor: launch + sync

// DRAM traffic of one launch of a point's schedule (every kernel it runs, summed), measured by
// Nsight Compute with the L2 emptied before and drained after (traffic/profile_traffic.hpp).
struct DramTraffic {
  double read_bytes = 0;   // dram__bytes_read.sum
  double write_bytes = 0;  // dram__bytes_write.sum
  int kernels = 0;         // kernels the launch ran
};

struct SweepPoint {
  std::string workload;
  long long m = 0;
  long long n = 0;
  std::string schedule;  // "staged", "global_reread", "cluster", "copy", "control", ...
  int p = 1;             // CTAs per row
  Disposition disposition = Disposition::Skipped;
  std::string reason;    // why it was not "passed"
  Stat time_ms;
  double compulsory_bytes = 0;   // bytes the operator must move (reads + writes)
  double traffic_bytes = 0;      // bytes this schedule moves by its own count
  double gbps = 0;               // compulsory_bytes / median time
  double pct_of_copy = 0;        // gbps / copy bandwidth measured in the same run, in percent
  double max_rel_l2_error = 0;   // worst output's ||out - ref|| / ||ref||
  // Seed 001's ladder (kind "ladder": time_ms is host completion time) only.
  std::string submission = "direct";  // "direct" launches or "graph" replay
  std::string variant;                // megakernel barrier and Fig. 6 switches, e.g. "grid+reload_input"
  Stat gpu_time_ms;                   // the same submission timed by CUDA events (runs = 0: not measured)
  // Kernel sweeps: rows (clusters or CTAs of one row) the device holds at once for this point
  // (occupancy API; 0: not recorded), and the median of a second, separate timing pass
  // (0: one pass), from which the noise band is measured.
  long long resident_rows = 0;
  double repeat_ms = 0;
  // bench --traffic, a sweep's "traffic": the measured DRAM bytes (empty: not measured).
  std::optional<DramTraffic> dram;
};

}  // namespace credit
