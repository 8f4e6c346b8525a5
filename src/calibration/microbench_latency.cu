// Table II latency rows: local vs remote load latency by pointer chase.
#include <algorithm>

#include "calibration/microbench.hpp"
#include "calibration/microbench_run.hpp"
#include "microbench/latency.cuh"

namespace credit::gpu {

Stat load_latency_cycles(bool remote, const DeviceInfo& dev, int runs) {
  using microbench::ChasePolicy;
  ClusterRun run(remote ? &microbench::chase_kernel<true> : &microbench::chase_kernel<false>, 2, ChasePolicy::threads,
                 dev, remote ? "remote load latency" : "local load latency");
  return repeat(run, runs, [](const std::vector<microbench::CtaSample>& s) {
    // Only rank 0 chases; its peer records 0 cycles.
    return double(std::max(s[0].cycles, s[1].cycles)) / ChasePolicy::steps;
  });
}

}  // namespace credit::gpu
