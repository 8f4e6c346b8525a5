// credit predict: the profitability model (paper Eq. 3-9) at one shape, from this device's
// calibration, one timing of the CUDA baseline (T_B) and the work-free control per P (T_ctrl).
// With --from FILE it re-evaluates the model offline from a recorded prediction file.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "cli/calibration_cache.hpp"
#include "cli/commands.hpp"
#include "cli/list_options.hpp"
#include "core/shape.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "gpu/bench.hpp"
#include "gpu/control.hpp"
#include "gpu/device_query.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/profitability.hpp"

namespace credit::cli {

namespace {

struct PredictArgs {
  std::string workload, shape, ps = "2,4,8,16", model = "paper", from;
  std::uint64_t seed = 20261129;
};

// Measured inputs are kept as points of the results file, so --from can re-evaluate them: the
// baseline's own point, one kControlSchedule point per P (T_ctrl) and one kCopySchedule point.

}  // namespace

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

namespace {

void print_prediction(const Prediction& pr) {
  fmt::print("{} {}x{}: model {}, CUDA baseline {} T_B = {:.4f} ms\n", pr.workload, pr.m, pr.n, pr.model,
             pr.baseline, pr.t_b_ms);
  fmt::print("{:>3} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}  {}\n", "P", "legal", "T_save", "T_ctrl",
             "T_replay", "T_DSM", "T_depos.", "dT", "verdict (ms)");
  for (const auto& r : pr.rows) {
    if (!r.legal || !r.reason.empty()) {
      fmt::print("{:>3} {:>6}  {}\n", r.p, r.legal ? "yes" : "no", r.reason);
      continue;
    }
    fmt::print("{:>3} {:>6} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.5f} {:>9.4f} {:>10.4f}  {}\n", r.p, "yes", r.t_save_ms,
               r.t_ctrl_ms, r.t_replay_ms, r.t_dsm_ms, r.t_deposit_ms, r.dt_ms,
               r.profitable ? "profitable" : "not profitable");
  }
  if (pr.best_p) fmt::print("predicted best P = {}\n", *pr.best_p);
  else fmt::print("predicted: stay with the non-clustered kernel (no legal P has dT > 0)\n");
}

}  // namespace

model::ShapeTimings timings_from(const ResultsFile& f, const std::string& workload, long long m, long long n,
                                 const std::string& baseline) {
  model::ShapeTimings t;
  t.copy_gbps = f.copy_gbps;
  bool have_base = false;
  for (const auto& p : f.points) {
    if (p.workload != workload || p.m != m || p.n != n || p.disposition != Disposition::Passed) continue;
    if (p.schedule == kControlSchedule) t.t_ctrl_ms[p.p] = p.time_ms.median;
    if (p.schedule == kCopySchedule) t.t_copy_ms = p.time_ms.median;
    if (p.schedule == baseline) {
      t.t_b_ms = p.time_ms.median;
      have_base = true;
    }
  }
  if (!have_base)
    throw CommandFailed(fmt::format("no passed {} point for {} {}x{} in the file: cannot take T_B", baseline,
                                    workload, m, n), 2);
  return t;
}

std::vector<Prediction> reevaluate(const ResultsFile& in, const std::vector<model::Variant>& variants,
                                   const std::string& only_workload) {
  if (!in.calibration) throw CommandFailed("calibration: missing (the file must carry the device's calibration)", 2);
  const model::DeviceFigures dev = model::device_figures_from(*in.calibration);
  std::vector<Prediction> out;
  std::vector<std::string> seen;  // one re-evaluation per shape, whatever variants the file holds
  for (const auto& old : in.predictions) {
    const std::string key = fmt::format("{}/{}/{}", old.workload, old.m, old.n);
    if ((!only_workload.empty() && old.workload != only_workload) ||
        std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    const WorkloadInfo& w = find_workload(old.workload);
    const model::ShapeTimings t = timings_from(in, old.workload, old.m, old.n, old.baseline);
    std::vector<int> ps;
    for (const auto& r : old.rows) ps.push_back(r.p);
    for (auto v : variants) out.push_back(model::predict(w.figures, old.workload, v, dev, old.m, old.n, t, ps));
  }
  return out;
}

namespace {

// Offline: every shape predicted in the file, re-evaluated with the chosen model variant.
void run_from_file(const PredictArgs& a, const GlobalOptions& g) {
  ResultsFile in = read_results(a.from);
  std::vector<Prediction> out;
  try {
    out = reevaluate(in, {model::parse_variant(a.model)}, a.workload);
  } catch (const CommandFailed& e) {
    throw CommandFailed(a.from + ": " + e.what(), 2);
  }
  if (out.empty()) throw CommandFailed(a.from + ": predictions: none to re-evaluate", 2);
  for (const auto& p : out) print_prediction(p);
  if (!g.json_path.empty()) {
    ResultsFile res = in;
    res.meta = meta_of(g);
    res.predictions = out;
    write_results(g.json_path, res);
  }
}

void run_predict(const PredictArgs& a, const GlobalOptions& g) {
  if (!a.from.empty()) return run_from_file(a, g);
  if (a.workload.empty() || a.shape.empty())
    throw CommandFailed("predict needs --workload and --shape (or --from FILE)", 2);
  const WorkloadInfo& w = find_workload(a.workload);  // bad input fails before the GPU is touched
  const Shape shape = parse_shape(a.shape);
  const std::vector<int> ps = parse_int_list(a.ps);
  for (int p : ps)
    if (!is_cluster_size(p))
      throw CommandFailed(fmt::format("illegal cluster size {}: --P takes 2, 4, 8 and 16", p), 2);
  const model::Variant v = model::parse_variant(a.model);

  const DeviceInfo dev = gpu::use_device(g.device);
  const Calibration cal = calibration_for_device(dev);
  gpu::Timer timer(dev);
  ResultsFile res;
  res.kind = "prediction";
  res.meta = meta_of(g);
  res.device = dev;
  res.calibration = cal;
  res.copy_gbps = gpu::measure_copy_bandwidth(timer).best();  // the refined model's floor

  // T_B: one checked timing of the non-DSMEM CUDA path the paper's baseline selects here.
  const gpu::Schedule base = gpu::cuda_baseline(w, shape.n, dev);
  {
    gpu::DeviceProblem prob(w, shape.m, shape.n, a.seed);
    res.points.push_back(gpu::bench_point(prob, base, 1, dev, timer, gpu::TimingOptions{}, 0, a.seed));
  }
  const SweepPoint& bp = res.points.back();
  if (bp.disposition != Disposition::Passed)
    throw CommandFailed(fmt::format("the CUDA baseline did not pass at this shape: {}", bp.reason), 1);
  model::ShapeTimings t{bp.time_ms.median, {}, res.copy_gbps, 0};
  res.points.push_back(copy_point(w, shape.m, shape.n, timer));
  t.t_copy_ms = res.points.back().time_ms.median;
  for (int p : ps) {
    if (!gpu::can_implement(w, gpu::Schedule::Cluster, p, shape.m, shape.n, dev).ok) continue;  // illegal: no control
    res.points.push_back(control_point(w, shape.m, shape.n, p, dev, timer));
    t.t_ctrl_ms[p] = res.points.back().time_ms.median;
  }
  res.predictions.push_back(model::predict(w.figures, w.name, v, model::device_figures_from(cal), shape.m,
                                           shape.n, t, ps));
  print_prediction(res.predictions.back());
  if (!g.json_path.empty()) write_results(g.json_path, res);
}

}  // namespace

void add_predict_command(CLI::App& app, GlobalOptions& g) {
  static PredictArgs a;
  auto* cmd = app.add_subcommand("predict", "profitability model per cluster size at one shape (needs a GPU, "
                                            "or --from FILE)");
  cmd->add_option("--workload", a.workload, "workload name (see credit list)");
  cmd->add_option("--shape", a.shape, "MxN, e.g. 4096x65536");
  add_int_list_option(cmd, "--P", a.ps, "cluster sizes", "2,4,8,16");
  cmd->add_option("--model", a.model, "paper or refined")->capture_default_str();
  cmd->add_option("--from", a.from, "re-evaluate the predictions recorded in this results file, offline");
  cmd->add_option("--seed", a.seed, "input seed of the baseline timing")->capture_default_str();
  cmd->callback([&g] { run_predict(a, g); });
}

}  // namespace credit::cli
