#include <algorithm>
#include <climits>

#include "core/workload_registry.hpp"
#include "calibration/calibrate.hpp"
#include "calibration/microbench.hpp"
#include "calibration/microbench_run.hpp"
#include "calibration/model_inputs.hpp"
#include "gpu/launch/schedules.hpp"

namespace credit::gpu {

int max_active_clusters_at_widest_row(int p, const DeviceInfo& dev) {
  int fewest = INT_MAX;
  for (const WorkloadInfo& w : all_workloads()) {
    const long per_cta = (dev.smem_per_block_optin - w.figures.s_scratch) / w.figures.b_keep;
    if (per_cta < 1) return 0;
    fewest = std::min(fewest, max_active_clusters(w, Schedule::Cluster, p, (long long)per_cta * p, dev));
  }
  return fewest == INT_MAX ? 0 : fewest;
}

namespace {

void say(const CalibrationOptions& opt, const std::string& line) {
  if (opt.progress) opt.progress(line);
}

}  // namespace

Calibration run_calibration(const DeviceInfo& dev, const CalibrationOptions& opt) {
  Calibration c;
  c.device = dev;
  say(opt, "SM clock");
  const SmClock f = measure_sm_clock(dev);
  c.sm_clock_hz = f.hz;
  c.clock_source = f.source;
  say(opt, "load latency (pointer chase, 2-CTA cluster)");
  c.local_load_latency = load_latency_cycles(false, dev, opt.runs);
  c.remote_load_latency = load_latency_cycles(true, dev, opt.runs);
  for (int p : opt.ps) {
    c.max_active_clusters[p] = max_active_clusters_at_widest_row(p, dev);
    say(opt, "P=" + std::to_string(p) + ": throughput and cluster barrier");
    try {
      c.local_read[p] = access_bytes_per_cycle(Access::LocalRead, p, dev, opt.runs);
      c.local_store[p] = access_bytes_per_cycle(Access::LocalStore, p, dev, opt.runs);
      c.remote_read[p] = access_bytes_per_cycle(Access::RemoteRead, p, dev, opt.runs);
      c.remote_store[p] = access_bytes_per_cycle(Access::RemoteStore, p, dev, opt.runs);
      c.barrier[p] = cluster_barrier_cycles(p, dev, opt.runs);
    } catch (const Unschedulable& e) {  // drop the whole P rather than leave it half measured
      for (auto* m : {&c.local_read, &c.local_store, &c.remote_read, &c.remote_store, &c.barrier}) m->erase(p);
      say(opt, "P=" + std::to_string(p) + " skipped: " + e.what());
    }
  }
  say(opt, "time model inputs: occupancy limits, kernel resources, cluster slots, copies");
  measure_model_inputs(c, dev, opt.ps);
  return c;
}

}  // namespace credit::gpu
