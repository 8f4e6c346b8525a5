#pragma once
// The kernel-time sweep (run-sweep, the paper's evaluation): for every (workload, M, N) check and
// time the CUDA baselines, every legal clustered P, megakernel and local fusion per split, the
// work-free controls and a copy, then predict with both model variants. Records are written
// atomically as they complete; a resumed file's points are reused. Needs a GPU (credit_gpu),
// except sweep_workloads and sweep_shapes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/device_info.hpp"
#include "core/log.hpp"
#include "core/results_file.hpp"
#include "core/results_meta.hpp"
#include "core/workload_registry.hpp"
#include "credit/schedule.hpp"
#include "sweep/sweep_config.hpp"

namespace credit {

struct SweepShape {
  const WorkloadInfo* w;
  long long m, n;
};

// The config's workloads (all declared ones when it names none); std::invalid_argument for an unknown one.
std::vector<const WorkloadInfo*> sweep_workloads(const SweepConfig& cfg);

// The kernel sweep's shapes, in the order they are measured (max_bytes leaves some out, said on log.info).
std::vector<SweepShape> sweep_shapes(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& workloads,
                                     const Log& log = {});

// Every candidate schedule at each P it takes (the config's cluster sizes, the spread splits): the kernel
// points a sweep measures per shape beside megakernel and local fusion per split.
std::vector<std::pair<Schedule, int>> candidate_points(const SweepConfig& cfg);

// What --dry-run prints: the points per shape (an upper bound: points the GPU cannot run are
// recorded, not timed) and a rough time. Per shape: candidate_points, megakernel and local fusion
// per split, a control per cluster size, and the copy. Each timed
// point costs (warmup + samples + 1 check) runs of its operands' bytes at 3 TB/s plus 5 us of
// launch, and 20 ms of set-up (allocation, the CPU check of sampled rows, the atomic save); a
// second pass times every kernel point again.
struct ShapeEstimate {
  SweepShape shape;
  double bytes = 0;    // the operands (gpu/launch/device_fit.hpp's problem_bytes)
  double seconds = 0;  // every pass
};
struct SweepEstimate {
  std::size_t kernels = 0, per_shape = 0, total_points = 0;
  std::vector<ShapeEstimate> shapes;
  double total_s = 0;
};
SweepEstimate estimate_sweep(const SweepConfig& cfg, const std::vector<SweepShape>& shapes);

// The sweep file `resume` to continue (an empty results file when `resume` is empty);
// std::invalid_argument when it is not a sweep.
ResultsFile sweep_to_resume(const std::string& resume);

// std::invalid_argument when `out`, read from `resume` (not empty), was measured on another GPU than `dev`.
void check_resume_device(const ResultsFile& out, const std::string& resume, const DeviceInfo& dev);

// std::invalid_argument naming the first shape whose operands do not fit `dev` (gpu/launch/device_fit.hpp).
void check_shapes_fit(const std::vector<SweepShape>& shapes, const DeviceInfo& dev);

// Runs every pass of the sweep on `dev` into `out`, saved at `path` after every point: the
// device's calibration (cached, else run; argv goes into the cached file), the copy bandwidth,
// then pass 1 (every missing point and the predictions) and the timing passes after it.
void run_sweep_passes(const SweepConfig& cfg, const std::vector<SweepShape>& shapes, const DeviceInfo& dev,
                      std::uint64_t seed, const Meta& meta, const std::vector<std::string>& argv, ResultsFile& out,
                      const std::string& path, const Log& log = {});

}  // namespace credit
