#pragma once
// `credit calibrate`'s measurements (paper Table II, DESIGN.md section 4): the SM clock, the
// load latencies, the throughputs and the barrier cost per cluster size, and the clusters the
// clustered kernel can hold at once. Well under a second of GPU time on an H200.
#include <functional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"

namespace credit::gpu {

struct CalibrationOptions {
  int runs = 15;                   // launches per figure (median, min, max)
  std::vector<int> ps{2, 4, 8, 16};
  std::function<void(const std::string&)> progress;  // one line per step; may be empty
};

// Runs every microbenchmark on the current device. A P whose microbenchmark cluster the device
// cannot co-schedule is left out of the throughput and barrier maps and reported through
// progress; a placement failure (two CTAs of a cluster on one SM) throws PlacementError.
Calibration run_calibration(const DeviceInfo& dev, const CalibrationOptions& opt = {});

// Clusters of p CTAs the clustered kernel can hold at once at its largest shared memory (the
// widest legal row, ceil(N/p)*b_keep + S_scratch just under the opt-in limit): the minimum over
// the declared workloads of gpu::max_active_clusters (cudaOccupancyMaxActiveClusters).
int max_active_clusters_at_widest_row(int p, const DeviceInfo& dev);

}  // namespace credit::gpu
