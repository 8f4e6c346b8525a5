#pragma once
// What a sweep measures: workloads x widths x cluster sizes, rows per workload, timing.
// The paper's sweep is built in; configs/*.json hold others (quick, extended).
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/element_type.hpp"

namespace credit {

// kernel_time: GPU time by events, L2 flushed (the paper's). host_completion: seed 001's, from
// submission until stream synchronisation returns, warm, same input; the ladder of schedules.
enum class Metric { KernelTime, HostCompletion };

struct SweepConfig {
  std::string name = "paper";
  Metric metric = Metric::KernelTime;
  std::vector<std::string> workloads;  // empty: all declared workloads
  std::vector<long long> widths{4096, 8192, 16384, 32768, 65536};
  std::map<std::string, long long> rows;  // per workload; absent: the workload's default M
  std::vector<int> cluster_sizes{2, 4, 8, 16};
  // CTAs (tiles) per row of the global-memory schedules (megakernel, local fusion, unfused);
  // with kernel_time, empty leaves them out of the sweep.
  std::vector<int> splits;
  // The row counts M, replacing "rows": every workload at every M (kernel_time), or seed 001's
  // ladder (host_completion); switch_rows: where seed 001's Fig. 6 switches are measured.
  std::vector<long long> row_counts;
  std::vector<long long> switch_rows;
  int samples = 20, warmup = 3;
  // kernel_time: timing passes over the whole sweep (2: every passed kernel is timed again after
  // all shapes, which measures the noise band); shapes whose compulsory bytes exceed max_bytes
  // are left out (0: no limit).
  int passes = 1;
  double max_bytes = 0;
  // kernel_time: after the timing, every passed kernel point is profiled once more under
  // Nsight Compute for its measured DRAM bytes (traffic/profile_traffic.hpp).
  bool traffic = false;
  // The stored type of every workload's tensors: "f32", "bf16" or "f16"; the workloads run as
  // "<name>@bf16" and so on (narrow_workloads).
  ElementType element = ElementType::F32;
};

// The paper's sweep: every declared workload, N in {4096 ... 65536}, default M, P in {2, 4, 8, 16}.
SweepConfig paper_sweep();

// Every key a config may have; any other key is an error naming it. "row_counts" (M of kernel
// sweeps), "passes", "max_bytes" and "traffic" are kernel-sweep keys being added alongside.
inline constexpr std::array<const char*, 15> kSweepConfigKeys{
    "name",    "metric",  "workloads",  "widths", "rows",   "row_counts", "switch_rows",
    "splits",  "cluster_sizes", "samples", "warmup", "passes", "max_bytes", "traffic", "dtype"};

// The largest samples, warmup and max_bytes a config may give: beyond them a sweep would run for days
// (and the estimate and counts be meaningless), so a typo such as 2147483647 is refused, not run.
inline constexpr int kMaxConfigSamples = 100000;
inline constexpr int kMaxConfigWarmup = 10000;
inline constexpr double kMaxConfigBytes = 1e15;

// Reads a config file. Every key is optional (defaults: the paper's sweep); unknown keys, unknown workloads,
// a value outside its range (widths 1 ... kMaxWidth, rows and row counts 1 ... kMaxRows, splits
// 1 ... kMaxGlobalSplit, cluster sizes 2, 4, 8, 16, samples 1 ... kMaxConfigSamples, warmup
// 0 ... kMaxConfigWarmup, passes 1 or 2, max_bytes up to kMaxConfigBytes), an item repeated in a list,
// a results file given as a config and malformed JSON throw std::invalid_argument naming the file,
// the field and, for a range, the value given and the limit.
SweepConfig read_sweep_config(const std::filesystem::path& path);

long long rows_for(const SweepConfig& c, const std::string& workload, long long default_rows);

// Kernel sweeps: the row counts of a workload, row_counts when given, else {rows_for(...)}.
std::vector<long long> row_counts_for(const SweepConfig& c, const std::string& workload, long long default_rows);

}  // namespace credit
