#include "runner/measured_points.hpp"

#include "gpu/measure/bench.hpp"
#include "calibration/control.hpp"

namespace credit {

SweepPoint copy_point(const WorkloadInfo& w, long long m, long long n, gpu::Timer& timer) {
  SweepPoint c;
  c.workload = w.name;
  c.m = m;
  c.n = n;
  c.schedule = kCopySchedule;
  c.compulsory_bytes = c.traffic_bytes = gpu::compulsory_bytes(w, m, n);
  c.time_ms = gpu::time_copy_of_traffic(timer, c.compulsory_bytes, gpu::TimingOptions{});
  c.gbps = c.compulsory_bytes / (c.time_ms.median * 1e6);
  c.disposition = Disposition::Passed;
  c.reason = "cudaMemcpy moving the shape's compulsory bytes (half read, half written)";
  return c;
}

SweepPoint control_point(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev,
                         gpu::Timer& timer) {
  SweepPoint c;
  c.workload = w.name;
  c.m = m;
  c.n = n;
  c.schedule = kControlSchedule;
  c.p = p;
  c.time_ms.median = gpu::t_ctrl_ms(w, m, n, p, dev, timer);
  c.time_ms.runs = gpu::kControlTiming.samples;
  c.disposition = Disposition::Passed;
  c.reason = "T_ctrl: control kernel at P minus the one-CTA control (medians)";
  return c;
}

}  // namespace credit
