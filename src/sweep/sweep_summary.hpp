#pragma once
// What a sweep says: per (workload, N), was the best clustered P faster than the CUDA baseline
// (measured), and did each model variant predict so; per workload, measured and predicted N*.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/results_file.hpp"

namespace credit {

struct ShapeVerdict {
  std::string workload;
  long long m = 0, n = 0;
  std::string baseline;            // the CUDA baseline path the predictions used
  double t_baseline_ms = 0;
  std::optional<int> best_p;       // fastest passed clustered P (measured)
  double t_best_ms = 0;
  bool measured_profitable = false;  // best clustered P faster than the baseline
  std::map<std::string, std::optional<int>> predicted_p;  // per model variant
};

struct WorkloadSummary {
  std::string workload;
  std::optional<long long> measured_n_star;
  std::map<std::string, std::optional<long long>> predicted_n_star;  // per variant
  std::map<std::string, int> correct;  // per variant: predicted == measured profitability
  int shapes = 0;
};

struct SweepSummary {
  std::vector<ShapeVerdict> shapes;        // sweep order
  std::vector<WorkloadSummary> workloads;  // sweep order
  std::map<std::string, int> correct;      // per variant, over all shapes
  std::map<std::string, int> exact_n_star; // per variant: workloads whose predicted N* is exact
  int total = 0;
};

// Shapes without a passed baseline point, or with no prediction, are left out.
SweepSummary summarize_sweep(const ResultsFile& results);

// Speed-up of the best clustered P over each baseline (T_baseline / T_CREDIT): "cuda" (the
// paper's CUDA baseline), each schedule of the other files (e.g. torch_compile, triton), and
// "best", the fastest of them all at that shape. Geometric means per N, and per (M, N), over the
// workloads that have the baseline; shapes where a baseline did not pass are left out of its mean.
struct SpeedupTable {
  std::map<long long, std::map<std::string, double>> geomean;  // N -> baseline -> geomean
  std::map<long long, std::map<std::string, int>> count;       // N -> baseline -> workloads
  std::map<std::pair<long long, long long>, std::map<std::string, double>> shape_geomean;  // (M, N) -> baseline -> ...
  std::map<std::pair<long long, long long>, std::map<std::string, int>> shape_count;
};
SpeedupTable speedups(const ResultsFile& sweep, const std::vector<ResultsFile>& other_baselines);

// The schedules of scripts/torch_baselines.py's files: torch_compile, triton, torch_eager.
bool is_peer_schedule(const std::string& schedule);
// How many passed peer points `peers` has at a shape (workload, M, N) of `sweep`: 0 means the file adds nothing to
// the sweep's summary (another run's shapes, or not a baseline file at all).
std::size_t peer_points_at_shapes(const ResultsFile& sweep, const ResultsFile& peers);

// credit's fastest measured schedule (any one-CTA kernel or cluster P) against the fastest peer
// (every schedule of the other files, e.g. torch_compile and triton) at the same shape:
// T_peer / T_credit per shape, and per (M, N) the geometric mean and the minimum over workloads.
// What any kernel could reach against the peer, per (M, N), geometric means over the same workloads:
// - ceiling: T_peer / T_bandwidth, T_bandwidth = the shape's compulsory bytes at the copy bandwidth the
//   sweep's run measured (a large copy): the ratio of a kernel that moves only its compulsory bytes at
//   the copy bandwidth, so no target above it can be met by bandwidth (0 where the file has no copy
//   bandwidth);
// - copy: T_peer / T_copy, T_copy = credit's copy kernel of the same bytes at this shape (the sweep's
//   "copy" points; 0 where it has none): below the ceiling where latency, not bandwidth, sets the time.
struct PeerRatio {
  std::string workload;
  long long m = 0, n = 0;
  std::string credit_schedule, peer_schedule;
  double t_credit = 0, t_peer = 0;
  double t_bandwidth = 0, t_copy = 0;  // ms; 0: unknown
};
struct PeerTable {
  std::vector<PeerRatio> shapes;
  std::map<std::pair<long long, long long>, double> geomean, worst;  // (M, N) -> ratio
  std::map<std::pair<long long, long long>, int> count;
  std::map<std::pair<long long, long long>, double> ceiling, copy;  // (M, N) -> geomean; absent: unknown
};
PeerTable credit_vs_peers(const ResultsFile& sweep, const std::vector<ResultsFile>& peers);

// credit's fastest passed candidate at each shape as a fraction of credit's copy of the same bytes in the same
// run (T_copy / T_credit): how close the pick comes to the bandwidth floor. Per (M, N), the geometric mean over
// the workloads and the lowest shape. Shapes without a copy point are left out.
struct CopyFraction {
  std::string workload, schedule;  // the lowest shape's, and its fastest candidate ("cluster P=8")
  double fraction = 0;
};
struct CopyFractionTable {
  std::map<std::pair<long long, long long>, double> geomean;  // (M, N) -> geomean of T_copy / T_credit
  std::map<std::pair<long long, long long>, CopyFraction> lowest;
  std::map<std::pair<long long, long long>, int> count;
};
CopyFractionTable credit_vs_copy(const ResultsFile& sweep);

// DSMEM against global-memory exchange (seed 001): per shape that has a megakernel or local
// fusion point, the fastest passed P of each split-row schedule, by the file's own metric.
struct BestSplit {
  int p = 0;
  double ms = 0;
};
struct ExchangeComparison {
  std::string workload;
  long long m = 0, n = 0;
  std::optional<BestSplit> cluster, megakernel, local_fusion;
};
std::vector<ExchangeComparison> compare_exchanges(const ResultsFile& results);

}  // namespace credit
