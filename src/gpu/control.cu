#include <stdexcept>
#include <string>

#include "core/split.hpp"
#include "gpu/cluster_launch.hpp"
#include "gpu/control.hpp"
#include "gpu/schedules.hpp"
#include "microbench/control.cuh"

namespace credit::gpu {

ControlLaunch control_launch(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev) {
  const std::string where = w.name + " control at " + std::to_string(m) + "x" + std::to_string(n) + " P=" +
                            std::to_string(p) + ": ";
  ControlLaunch c;
  c.p = p;
  c.threads = SplitPolicy::threads;
  c.barriers = w.figures.K();
  if (p == 1) {
    if (m < 1 || n < 1 || m > 0x7fffffffLL) throw std::invalid_argument(where + "rows must be in [1, 2^31 - 1] and N >= 1");
    c.ctas = m;
    const long staged = smem_bytes(w, Schedule::Staged, 1, n);
    c.smem = staged <= dev.smem_per_block_optin ? staged : dev.smem_per_block_optin;
    return c;
  }
  const Support ok = can_implement(w, Schedule::Cluster, p, m, n, dev);
  if (!ok.ok) throw std::invalid_argument(where + ok.reason);
  c.ctas = m * p;
  c.smem = smem_bytes(w, Schedule::Cluster, p, n);
  return c;
}

Stat control_time(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                  const TimingOptions& opt) {
  const ControlLaunch c = control_launch(w, m, n, p, dev);
  auto* kernel = p == 1 ? &microbench::control_kernel<false> : &microbench::control_kernel<true>;
  allow_large_clusters(kernel, dev.smem_per_block_optin);
  const ClusterShape shape{unsigned(c.ctas), c.p, c.threads, size_t(c.smem)};
  if (p > 1 && cluster_capacity(kernel, shape) < 1)  // the real kernel fits (can_implement), so should this
    throw std::invalid_argument(w.name + " control at P=" + std::to_string(p) + ": no cluster fits on the device");
  return timer.time([&] { launch_shape(kernel, shape, timer.stream(), c.barriers); }, opt);
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
