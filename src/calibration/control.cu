#include <stdexcept>
#include <string>

#include "core/split.hpp"
#include "gpu/launch/cluster_launch.hpp"
#include "calibration/control.hpp"
#include "gpu/launch/schedules.hpp"
#include "microbench/control.cuh"

namespace credit::gpu {

namespace {

using ControlKernel = void (*)(int);

ControlKernel control_kernel_for(int p) {
  return p == 1 ? &microbench::control_kernel<false> : &microbench::control_kernel<true>;
}

// Clusters (P = 1: CTAs) of the control resident at once with `smem` bytes per CTA.
int control_resident(ControlKernel k, int p, long smem, const DeviceInfo& dev) {
  allow_large_clusters(k, dev.smem_per_block_optin);
  if (p > 1) return cluster_capacity(k, ClusterShape{unsigned(p), p, SplitPolicy::threads, size_t(smem)});
  int blocks = 0;
  CREDIT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, SplitPolicy::threads, size_t(smem)));
  return blocks * dev.sm_count;
}

// The least shared memory >= from (in 128-byte steps) at which the control holds no more than
// `target` at once; residency only falls as shared memory grows, so bisect.
long smem_for_residency(ControlKernel k, int p, long from, int target, const DeviceInfo& dev) {
  if (control_resident(k, p, from, dev) <= target) return from;
  long lo = from, hi = dev.smem_per_block_optin;  // resident(lo) > target
  if (control_resident(k, p, hi, dev) > target) return hi;  // cannot match: as close as it gets
  while (hi - lo > 128) {
    const long mid = lo + (hi - lo) / 2 / 128 * 128;
    if (mid == lo) break;
    (control_resident(k, p, mid, dev) <= target ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

ControlLaunch control_launch(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev) {
  const std::string where = w.name + " control at " + std::to_string(m) + "x" + std::to_string(n) + " P=" +
                            std::to_string(p) + ": ";
  ControlLaunch c;
  c.p = p;
  c.threads = SplitPolicy::threads;
  c.barriers = w.figures.K();
  int real_resident = 0;
  if (p == 1) {
    if (m < 1 || n < 1 || m > 0x7fffffffLL) throw std::invalid_argument(where + "rows must be in [1, 2^31 - 1] and N >= 1");
    c.ctas = m;
    const long staged = smem_bytes(w, Schedule::Staged, 1, n, dev);
    const bool fits = staged <= dev.smem_per_block_optin;
    c.schedule_smem = fits ? staged : dev.smem_per_block_optin;
    // Past the staging limit no staged kernel exists to compare with: one CTA per SM.
    real_resident = fits ? max_active_clusters(w, Schedule::Staged, 1, n, dev) : dev.sm_count;
  } else {
    const Support ok = can_implement(w, Schedule::Cluster, p, m, n, dev);
    if (!ok.ok) throw std::invalid_argument(where + ok.reason);
    c.ctas = m * p;
    c.schedule_smem = smem_bytes(w, Schedule::Cluster, p, n, dev);
    real_resident = max_active_clusters(w, Schedule::Cluster, p, n, dev);
  }
  const ControlKernel k = control_kernel_for(p);
  c.smem = smem_for_residency(k, p, c.schedule_smem, real_resident, dev);
  c.resident = control_resident(k, p, c.smem, dev);
  if (c.resident < 1) throw std::invalid_argument(where + "no control cluster fits on the device");
  return c;
}

Stat control_time(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                  const TimingOptions& opt) {
  const ControlLaunch c = control_launch(w, m, n, p, dev);
  const ControlKernel k = control_kernel_for(p);
  const ClusterShape shape{unsigned(c.ctas), c.p, c.threads, size_t(c.smem)};
  return timer.time([&] { launch_shape(k, shape, timer.stream(), c.barriers); }, opt);
}

double control_time_ms(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                       const TimingOptions& opt) {
  return control_time(w, m, n, p, dev, timer, opt).median;
}

double t_ctrl_ms(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                 const TimingOptions& opt) {
  return control_time_ms(w, m, n, p, dev, timer, opt) - control_time_ms(w, m, n, 1, dev, timer, opt);
}

}  // namespace credit::gpu
