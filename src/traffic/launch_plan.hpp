#pragma once
// What the profiled child process launches (cli: credit profile-launches), and how the kernels
// Nsight Compute reports map back to it. The child launches a probe kernel first (a run with
// nothing to measure still shows whether the counters can be read), then, per target it can
// run, a marker kernel whose grid.x is the target's index + 1, one launch of the target and a
// drain kernel: the kernels after a marker are that target's (a schedule of several kernels is
// summed), and so are the drain's DRAM writes (what the target left dirty in the L2, written back
// as the drain evicts it), not its reads (its own scrub buffer).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sweep_point.hpp"
#include "traffic/ncu_csv.hpp"

namespace credit::traffic {

inline constexpr const char* kProbeKernel = "credit_traffic_probe";
inline constexpr const char* kMarkerKernel = "credit_traffic_marker";
inline constexpr const char* kDrainKernel = "credit_traffic_drain";
// A target's schedule "copy": the 16-byte-vector copy kernel over m x n floats (reads and writes
// 4 m n bytes), the reference of the GPU test; its workload is written "-".
inline constexpr const char* kCopyTarget = "copy";

struct LaunchTarget {
  std::string workload;
  long long m = 0, n = 0;
  std::string schedule;
  int p = 1;
};

// "rms_softmax:1024x65536:cluster:8"; parse_target throws std::invalid_argument naming the text.
std::string format_target(const LaunchTarget& t);
LaunchTarget parse_target(std::string_view text);

// The child's account of each target, one line per target: "INDEX\tlaunched" or
// "INDEX\tskipped\tREASON" (it did not launch it: e.g. its check failed).
struct ManifestEntry {
  bool launched = false;
  std::string reason;
};
std::string format_manifest(const std::vector<ManifestEntry>& entries);
// Throws ProfilerError unless it has one line for each of the `targets` in order.
std::vector<ManifestEntry> parse_manifest(std::string_view text, std::size_t targets);

// Per target, its kernels' bytes summed, or empty where it was not launched. Throws
// ProfilerError when ncu's kernels do not match the manifest: no probe (nothing was profiled),
// a kernel before the first marker, a marker count or grid that differs, a marker not followed
// by at least one kernel and then exactly one drain.
std::vector<std::optional<DramTraffic>> attribute_kernels(const std::vector<NcuKernel>& kernels,
                                                          const std::vector<ManifestEntry>& manifest);

}  // namespace credit::traffic
