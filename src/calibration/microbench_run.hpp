#pragma once
// One microbenchmark launch at a time: a single cluster of P CTAs, each asking for the
// device's opt-in shared memory so that no two CTAs fit on one SM, its per-CTA samples read
// back and placement-checked; then the median of many such launches.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "gpu/launch/cluster_launch.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/measure/timing.hpp"
#include "microbench/params.hpp"

namespace credit::gpu {

// The device cannot hold one cluster of this shape: this P cannot be measured here.
struct Unschedulable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ClusterRun {
 public:
  using Kernel = void (*)(microbench::CtaSample*);
  // Throws Unschedulable when not even one such cluster fits on the device.
  ClusterRun(Kernel kernel, int p, int threads, const DeviceInfo& dev, std::string what);
  // Launches once and waits; returns the p samples (index = blockIdx.x = cluster rank).
  // Throws PlacementError when two CTAs shared an SM.
  std::vector<microbench::CtaSample> once();

 private:
  Kernel kernel_;
  ClusterShape shape_;
  DeviceBuffer out_;
  std::string what_;
};

// One untimed launch, then `runs` launches reduced to a number each by metric(samples).
template <class F>
Stat repeat(ClusterRun& run, int runs, F metric) {
  run.once();
  std::vector<double> v;
  for (int i = 0; i < runs; ++i) v.push_back(metric(run.once()));
  return summarize(std::move(v));
}

}  // namespace credit::gpu
