#include "runner/paper_prediction.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "gpu/measure/bench.hpp"
#include "gpu/launch/schedules.hpp"
#include "runner/measured_points.hpp"

namespace credit {

ResultsFile measure_paper_prediction(const WorkloadInfo& w, long long m, long long n, const std::vector<int>& ps,
                                     model::Variant v, const DeviceInfo& dev, const Calibration& cal,
                                     const Meta& meta, std::uint64_t seed) {
  gpu::Timer timer(dev);
  ResultsFile res;
  res.kind = "prediction";
  res.meta = meta;
  res.device = dev;
  res.calibration = cal;
  res.copy_gbps = gpu::measure_copy_bandwidth(timer).best();  // the refined model's floor

  // T_B: one checked timing of the non-DSMEM CUDA path the paper's baseline selects here.
  const gpu::Schedule base = gpu::cuda_baseline(w, n, dev);
  {
    gpu::DeviceProblem prob(w, m, n, seed);
    res.points.push_back(gpu::bench_point(prob, base, 1, dev, timer, gpu::TimingOptions{}, 0, seed));
  }
  const SweepPoint& bp = res.points.back();
  if (bp.disposition != Disposition::Passed)
    throw std::runtime_error(fmt::format("the CUDA baseline did not pass at this shape: {}", bp.reason));
  model::ShapeTimings t{bp.time_ms.median, {}, res.copy_gbps, 0};
  res.points.push_back(copy_point(w, m, n, timer));
  t.t_copy_ms = res.points.back().time_ms.median;
  for (int p : ps) {
    if (!gpu::can_implement(w, gpu::Schedule::Cluster, p, m, n, dev).ok) continue;  // illegal: no control
    res.points.push_back(control_point(w, m, n, p, dev, timer));
    t.t_ctrl_ms[p] = res.points.back().time_ms.median;
  }
  res.predictions.push_back(model::predict(w.figures, w.name, v, model::device_figures_from(cal), m, n, t, ps));
  return res;
}

}  // namespace credit
