#include "runner/sweep_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "calibration/calibration_for_device.hpp"
#include "gpu/measure/bench.hpp"
#include "calibration/control.hpp"
#include "gpu/device/device_query.hpp"
#include "io/json_records.hpp"
#include "io/throttled_save.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"
#include "runner/measured_points.hpp"
#include "gpu/launch/device_fit.hpp"
#include "sweep/reevaluate.hpp"

namespace credit {

namespace {

// The most seconds of measurement a sweep killed by SIGKILL can lose (io/throttled_save.hpp).
constexpr double kSaveEveryS = 2.0;

const SweepPoint* find(const ResultsFile& r, const std::string& w, long long m, long long n, const std::string& s,
                       int p) {
  for (const auto& pt : r.points)
    if (pt.workload == w && pt.m == m && pt.n == n && pt.schedule == s && pt.p == p) return &pt;
  return nullptr;
}

}  // namespace

std::vector<std::pair<Schedule, int>> candidate_points(const SweepConfig& cfg) {
  std::vector<std::pair<Schedule, int>> out;
  for (const ScheduleTraits& t : schedule_traits())  // every candidate of the time model
    if (t.candidate)
      for (int p : ps_to_time(t.id, cfg.cluster_sizes, spread_splits())) out.emplace_back(t.id, p);
  return out;
}

namespace {

// The points of one (workload, N) that are still missing are measured; the rest are reused.
class ShapeRunner {
 public:
  ShapeRunner(const WorkloadInfo& w, long long m, long long n, const DeviceInfo& dev, gpu::Timer& timer,
              const SweepConfig& cfg, std::uint64_t seed, ResultsFile& out, ThrottledSave& saver, const Log& log)
      : w_(w), m_(m), n_(n), dev_(dev), timer_(timer), cfg_(cfg), seed_(seed), out_(out), saver_(saver), log_(log) {}

  void run() {
    for (const auto& [s, p] : candidate_points(cfg_)) measure(s, p);  // refused ones recorded why
    for (int p : cfg_.splits) {  // the global-memory exchange beside DSMEM (seed 001)
      measure(gpu::Schedule::Megakernel, p);
      measure(gpu::Schedule::LocalFusion, p);
    }
    for (int p : cfg_.cluster_sizes) control(p);
    if (!find(out_, w_.name, m_, n_, kCopySchedule, 1)) {
      out_.points.push_back(copy_point(w_, m_, n_, timer_));
      save();
    }
    predict();
  }

  // The second timing pass: every passed kernel point of this shape is timed again, long after
  // the first timing, without a new check (the inputs are regenerated from the same seed).
  void repeat() {
    const gpu::TimingOptions opt{cfg_.warmup, cfg_.samples, true};
    for (auto& pt : out_.points) {
      // Copy and control points are device measurements, not candidates.
      if (pt.workload != w_.name || pt.m != m_ || pt.n != n_ || pt.disposition != Disposition::Passed ||
          pt.repeat_ms > 0 || !model::is_candidate_point(pt.workload, pt.schedule, pt.p, pt.n))
        continue;
      const gpu::Schedule s = gpu::parse_schedule(pt.schedule);
      if (!prob_) prob_.emplace(w_, m_, n_, seed_);
      const int p = pt.p;
      pt.repeat_ms =
          timer_.time([&] { prob_->workspace().launch(w_, s, p, prob_->operands(), dev_, timer_.stream()); }, opt).median;
      save();
    }
  }

 private:
  // A point measured: the file is written when due (ThrottledSave), and at the end of the shape.
  void save() { saver_.changed(); }

  void measure(gpu::Schedule s, int p) {
    if (find(out_, w_.name, m_, n_, gpu::schedule_name(s), p)) return;
    if (!prob_) prob_.emplace(w_, m_, n_, seed_);
    const gpu::TimingOptions opt{cfg_.warmup, cfg_.samples, true};
    out_.points.push_back(gpu::bench_point(*prob_, s, p, dev_, timer_, opt, out_.copy_gbps, seed_));
    save();
  }

  void control(int p) {
    if (find(out_, w_.name, m_, n_, kControlSchedule, p)) return;
    if (!gpu::can_implement(w_, gpu::Schedule::Cluster, p, m_, n_, dev_).ok) return;  // no kernel: no control
    out_.points.push_back(control_point(w_, m_, n_, p, dev_, timer_));
    save();
  }

  void predict() {
    std::erase_if(out_.predictions, [&](const Prediction& p) { return p.workload == w_.name && p.m == m_ && p.n == n_; });
    const gpu::Schedule base = gpu::cuda_baseline(w_, n_, dev_);
    const SweepPoint* b = find(out_, w_.name, m_, n_, gpu::schedule_name(base), 1);
    if (!b || b->disposition != Disposition::Passed) {
      log_.warn("{} {}x{}: no passed CUDA baseline, no prediction", w_.name, m_, n_);
      return;
    }
    const model::ShapeTimings t = timings_from(out_, w_.name, m_, n_, b->schedule);
    const model::DeviceFigures d = model::device_figures_from(*out_.calibration);
    for (auto v : {model::Variant::Paper, model::Variant::Refined})
      out_.predictions.push_back(model::predict(w_.figures, w_.name, v, d, m_, n_, t, cfg_.cluster_sizes));
    save();
  }

  const WorkloadInfo& w_;
  long long m_, n_;
  const DeviceInfo& dev_;
  gpu::Timer& timer_;
  const SweepConfig& cfg_;
  std::uint64_t seed_;
  ResultsFile& out_;
  ThrottledSave& saver_;
  const Log& log_;
  std::optional<gpu::DeviceProblem> prob_;  // allocated only when something is measured
};

}  // namespace

std::vector<const WorkloadInfo*> sweep_workloads(const SweepConfig& cfg) {
  std::vector<const WorkloadInfo*> ws;
  // A name given typed ("layernorm@bf16") stays so in an f32 config.
  auto typed = [&](const WorkloadInfo& w) -> const WorkloadInfo& {
    return cfg.element == ElementType::F32 ? w : in_type(w, cfg.element);
  };
  if (cfg.workloads.empty())
    for (const auto& w : all_workloads()) ws.push_back(&typed(w));
  else
    for (const auto& n : cfg.workloads) ws.push_back(&typed(find_workload(n)));
  return ws;
}

// The kernel sweep's shapes, in the order they are measured (max_bytes leaves some out).
std::vector<SweepShape> sweep_shapes(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& workloads,
                                     const Log& log) {
  std::vector<SweepShape> shapes;
  for (const WorkloadInfo* w : workloads)
    for (long long m : row_counts_for(cfg, w->declared, w->default_rows))
      for (long long n : cfg.widths) {
        if (cfg.max_bytes > 0 && gpu::compulsory_bytes(*w, m, n) > cfg.max_bytes) {
          log.info("{} {}x{} left out: {:.3g} compulsory bytes > max_bytes {:.3g}", w->name, m, n,
                   gpu::compulsory_bytes(*w, m, n), cfg.max_bytes);
          continue;
        }
        shapes.push_back({w, m, n});
      }
  return shapes;
}

SweepEstimate estimate_sweep(const SweepConfig& cfg, const std::vector<SweepShape>& shapes) {
  constexpr double kBytesPerS = 3e12, kLaunchS = 5e-6, kSetupS = 0.02;
  SweepEstimate e;
  e.kernels = candidate_points(cfg).size() + 2 * cfg.splits.size();
  e.per_shape = e.kernels + cfg.cluster_sizes.size() + 1;
  for (const SweepShape& sh : shapes) {
    const double bytes = problem_bytes(*sh.w, sh.m, sh.n);
    const double run_s = bytes / kBytesPerS + kLaunchS;
    const double point_s = kSetupS + (double(cfg.warmup) + double(cfg.samples) + 1) * run_s;  // int sum overflows
    const double shape_s = double(e.per_shape) * point_s + double(cfg.passes - 1) * double(e.kernels) * point_s;
    e.shapes.push_back({sh, bytes, shape_s});
    e.total_s += shape_s;
    e.total_points += e.per_shape;
  }
  return e;
}

ResultsFile sweep_to_resume(const std::string& resume) {
  ResultsFile out;
  if (!resume.empty()) {
    out = read_results(resume);
    if (out.kind != "sweep") throw std::invalid_argument(resume + ": kind: expected a sweep, got " + out.kind);
  }
  return out;
}

void check_resume_device(const ResultsFile& out, const std::string& resume, const DeviceInfo& dev) {
  if (!resume.empty() && out.device.uuid != dev.uuid)
    throw std::invalid_argument(resume + ": device.uuid: measured on " + out.device.uuid + ", this GPU is " +
                                dev.uuid + ": a sweep resumes on the GPU it started on");
}

void check_shapes_fit(const std::vector<SweepShape>& shapes, const DeviceInfo& dev) {
  for (const SweepShape& sh : shapes)  // before anything is allocated or written
    if (const std::string why = device_memory_problem(*sh.w, sh.m, sh.n, dev); !why.empty())
      throw std::invalid_argument(why + ": leave it out of the config (widths, rows, max_bytes)");
}

void run_sweep_passes(const SweepConfig& cfg, const std::vector<SweepShape>& shapes, const DeviceInfo& dev,
                      std::uint64_t seed, const Meta& meta, const std::vector<std::string>& argv, ResultsFile& out,
                      const std::string& path, const Log& log) {
  out.kind = "sweep";
  out.meta = meta;
  out.device = dev;
  if (!out.calibration) out.calibration = calibration_for_device(dev, argv, log);
  gpu::Timer timer(dev);
  if (out.copy_gbps <= 0) out.copy_gbps = gpu::measure_copy_bandwidth(timer).best();
  write_results(path, out);
  log.info("sweep '{}' -> {} (copy {:.0f} GB/s)", cfg.name, path, out.copy_gbps);

  const StopOnSignal stop;  // SIGINT/SIGTERM: the sweep stops once the shape in progress is written
  ThrottledSave saver([&] { write_results(path, out); }, kSaveEveryS);
  const auto t0 = std::chrono::steady_clock::now();
  const size_t total = shapes.size() * size_t(cfg.passes);
  size_t done = 0;
  for (int pass = 1; pass <= cfg.passes; ++pass) {
    for (size_t i = 0; i < shapes.size(); ++i) {
      const SweepShape& sh = shapes[i];
      ShapeRunner runner(*sh.w, sh.m, sh.n, dev, timer, cfg, seed + i, out, saver, log);
      if (pass == 1) runner.run();
      else runner.repeat();
      saver.flush();  // every shape ends written
      if (StopOnSignal::requested())
        throw std::runtime_error(fmt::format("interrupted by signal {}: {} holds every point measured so far; "
                                             "continue with --resume", StopOnSignal::signal_number(), path));
      ++done;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      log.info("[{}/{}] pass {} {} {}x{} done, {:.0f} s elapsed, ETA {:.0f} s", done, total, pass, sh.w->name, sh.m,
               sh.n, el, el / double(done) * double(total - done));
    }
  }
}

}  // namespace credit
