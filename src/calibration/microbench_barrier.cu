// Table II barrier rows: cycles per cluster barrier per cluster size.
#include "calibration/microbench.hpp"
#include "calibration/microbench_run.hpp"
#include "microbench/barrier.cuh"

namespace credit::gpu {

Stat cluster_barrier_cycles(int p, const DeviceInfo& dev, int runs) {
  using microbench::BarrierPolicy;
  ClusterRun run(&microbench::cluster_barrier_kernel, p, BarrierPolicy::threads, dev,
                 "cluster barrier at P=" + std::to_string(p));
  return repeat(run, runs, [](const std::vector<microbench::CtaSample>& s) {
    double sum = 0;
    for (const auto& x : s) sum += double(x.cycles) / BarrierPolicy::iters;
    return sum / double(s.size());
  });
}

}  // namespace credit::gpu
