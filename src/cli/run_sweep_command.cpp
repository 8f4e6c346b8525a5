// credit run-sweep: the paper's evaluation on this GPU. For every (workload, N): check and time
// the CUDA baselines and every legal clustered P, time the work-free controls, then predict with
// both model variants. Records are written atomically as they complete; --resume skips every
// point already in the file, so an interrupted sweep loses nothing it measured.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <optional>

#include "calibration/calibration_for_device.hpp"
#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/csv_output.hpp"
#include "sweep/device_fit.hpp"
#include "cli/ladder_sweep.hpp"
#include "cli/structural_rule.hpp"
#include "cli/traffic_option.hpp"
#include "core/workload_registry.hpp"
#include "gpu/bench.hpp"
#include "gpu/control.hpp"
#include "gpu/device_query.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/profitability.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_summary.hpp"
#include "sweep/model_selection.hpp"
#include "sweep/reevaluate.hpp"
#include "runner/measured_points.hpp"
#include "model/time_model.hpp"
#include "traffic/traffic_table.hpp"

namespace credit::cli {

namespace {

struct SweepArgs {
  std::string config, resume, summarize, calibration;
  bool reevaluate = false, no_python = false, dry_run = false;
  std::string csv;  // --csv PATH or -
  std::vector<std::string> baselines;  // with --summarize: torch/Triton baseline files
  std::uint64_t seed = 20261129;
};


const SweepPoint* find(const ResultsFile& r, const std::string& w, long long m, long long n, const std::string& s,
                       int p) {
  for (const auto& pt : r.points)
    if (pt.workload == w && pt.m == m && pt.n == n && pt.schedule == s && pt.p == p) return &pt;
  return nullptr;
}

// The points of one (workload, N) that are still missing are measured; the rest are reused.
class ShapeRunner {
 public:
  ShapeRunner(const WorkloadInfo& w, long long m, long long n, const DeviceInfo& dev, gpu::Timer& timer,
              const SweepConfig& cfg, std::uint64_t seed, ResultsFile& out, const std::string& path)
      : w_(w), m_(m), n_(n), dev_(dev), timer_(timer), cfg_(cfg), seed_(seed), out_(out), path_(path) {}

  void run() {
    measure(gpu::Schedule::Staged, 1);
    measure(gpu::Schedule::GlobalReread, 1);
    measure(gpu::Schedule::Registers, 1);
    for (int p : cfg_.cluster_sizes) measure(gpu::Schedule::Cluster, p);
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
          pt.repeat_ms > 0 || !model::is_candidate_schedule(pt.schedule))
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
  void save() { write_results(path_, out_); }

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
      spdlog::warn("{} {}x{}: no passed CUDA baseline, no prediction", w_.name, m_, n_);
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
  const std::string& path_;
  std::optional<gpu::DeviceProblem> prob_;  // allocated only when something is measured
};

std::string p_or_none(const std::optional<int>& p) { return p ? std::to_string(*p) : "-"; }
std::string n_or_none(const std::optional<long long>& n) { return n ? std::to_string(*n) : "none"; }

// credit's fastest schedule against the fastest peer (torch.compile, Triton), per (M, N).
void print_peers(const ResultsFile& r, const std::vector<ResultsFile>& others) {
  const PeerTable t = credit_vs_peers(r, others);
  if (t.geomean.empty()) return;
  fmt::print("\ncredit's fastest schedule against the fastest of torch.compile and Triton (T_peer / T_credit)\n");
  fmt::print("{:>6} {:>7} {:>9} {:>9} {:>10}\n", "M", "N", "geomean", "worst", "workloads");
  for (const auto& [mn, g] : t.geomean)
    fmt::print("{:>6} {:>7} {:>8.3f}x {:>8.3f}x {:>10}\n", mn.first, mn.second, g, t.worst.at(mn), t.count.at(mn));
  for (const auto& s : t.shapes)
    if (s.t_peer / s.t_credit < 0.97)
      fmt::print("  below 0.97x: {} {}x{}: credit {} {:.4f} ms, {} {:.4f} ms\n", s.workload, s.m, s.n,
                 s.credit_schedule, s.t_credit, s.peer_schedule, s.t_peer);
}

void print_speedups(const ResultsFile& r, const std::vector<ResultsFile>& others) {
  print_peers(r, others);
  const SpeedupTable t = speedups(r, others);
  fmt::print("\ngeomean speed-up of the best clustered P over each baseline (T_baseline / T_CREDIT)\n");
  for (const auto& [n, by] : t.geomean) {
    std::string line = fmt::format("N = {:>6}:", n);
    for (const auto& [name, g] : by) line += fmt::format("  {} {:.3f}x ({})", name, g, t.count.at(n).at(name));
    fmt::print("{}\n", line);
  }
}

// "P=8 0.0150 (1.17x)": the time over `base`'s, when given.
std::string split_or_none(const std::optional<BestSplit>& b, const std::optional<BestSplit>& base) {
  if (!b) return "-";
  const std::string vs = base ? fmt::format(" ({:.2f}x)", b->ms / base->ms) : "";
  return fmt::format("P={} {:.4f}{}", b->p, b->ms, vs);
}

// Only when the file has megakernel or local fusion points ("splits" in the config).
void print_exchange_comparison(const ResultsFile& r) {
  const auto rows = compare_exchanges(r);
  if (rows.empty()) return;
  fmt::print("\nDSMEM against global-memory exchange: fastest passed P, ms (time / cluster's)\n");
  fmt::print("{:<12} {:>6} {:>7} {:>18} {:>26} {:>26}\n", "workload", "M", "N", "cluster (DSMEM)", "megakernel",
             "local fusion");
  for (const auto& c : rows)
    fmt::print("{:<12} {:>6} {:>7} {:>18} {:>26} {:>26}\n", c.workload, c.m, c.n, split_or_none(c.cluster, {}),
               split_or_none(c.megakernel, c.cluster), split_or_none(c.local_fusion, c.cluster));
}

void print_summary(const ResultsFile& r) {
  const SweepSummary s = summarize_sweep(r);
  fmt::print("\n{:<12} {:>7} {:<14} {:>10} {:>6} {:>10} {:>9} {:>8} {:>8}\n", "workload", "N", "baseline",
             "T_base ms", "best P", "T_best ms", "measured", "paper P", "refin. P");
  for (const auto& v : s.shapes)
    fmt::print("{:<12} {:>7} {:<14} {:>10.4f} {:>6} {:>10.4f} {:>9} {:>8} {:>8}\n", v.workload, v.n, v.baseline,
               v.t_baseline_ms, p_or_none(v.best_p), v.t_best_ms, v.measured_profitable ? "wins" : "loses",
               p_or_none(v.predicted_p.count("paper") ? v.predicted_p.at("paper") : std::nullopt),
               p_or_none(v.predicted_p.count("refined") ? v.predicted_p.at("refined") : std::nullopt));
  fmt::print("\n{:<12} {:>10} {:>12} {:>12} {:>14} {:>14}\n", "workload", "measured N*", "paper N*", "refined N*",
             "paper right", "refined right");
  for (const auto& w : s.workloads) {
    auto ns = [&](const char* v) { return n_or_none(w.predicted_n_star.count(v) ? w.predicted_n_star.at(v) : std::nullopt); };
    auto ok = [&](const char* v) { return fmt::format("{}/{}", w.correct.count(v) ? w.correct.at(v) : 0, w.shapes); };
    fmt::print("{:<12} {:>10} {:>12} {:>12} {:>14} {:>14}\n", w.workload, n_or_none(w.measured_n_star), ns("paper"),
               ns("refined"), ok("paper"), ok("refined"));
  }
  for (const char* v : {"paper", "refined"}) {
    const int c = s.correct.count(v) ? s.correct.at(v) : 0;
    fmt::print("model {}: {}/{} shapes right ({:.1f}%), N* exact for {}/{} workloads\n", v, c, s.total,
               s.total ? 100.0 * c / s.total : 0.0, s.exact_n_star.count(v) ? s.exact_n_star.at(v) : 0,
               s.workloads.size());
  }
  print_exchange_comparison(r);
}

// torch eager, torch.compile and Triton at the sweep's shapes, by scripts/torch_baselines.py,
// when python3 with torch and a GPU is here. Returns the file it wrote, if any.
std::optional<std::string> run_python_baselines(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& ws,
                                                const std::string& sweep_path) {
  const std::string script = std::string(CREDIT_SOURCE_DIR) + "/scripts/torch_baselines.py";
  if (std::system("python3 -c 'import torch, triton; assert torch.cuda.is_available()' >/dev/null 2>&1") != 0) {
    spdlog::info("python3 with torch, triton and CUDA not found: torch.compile and Triton baselines skipped");
    return std::nullopt;
  }
  const std::string stem = sweep_path.size() > 5 && sweep_path.ends_with(".json")
                               ? sweep_path.substr(0, sweep_path.size() - 5) : sweep_path;
  const std::string out = stem + "-torch.json";
  std::string names, widths;
  for (const auto* w : ws) {
    names += (names.empty() ? "" : ",") + w->name;
    if (cfg.rows.count(w->name)) spdlog::warn("torch baselines use each workload's default M, not the config's rows");
  }
  for (long long n : cfg.widths) widths += (widths.empty() ? "" : ",") + std::to_string(n);
  const std::string cmd = fmt::format("python3 '{}' --workloads {} --widths {} --json '{}'", script, names, widths, out);
  spdlog::info("torch/Triton baselines: {}", cmd);
  const int rc = std::system(cmd.c_str());
  if (rc != 0) spdlog::warn("torch baselines exited with status {} (points that did not pass say why in {})", rc, out);
  return out;
}

// Selection regret of every model variant on the file's shapes: paper and refined from its
// predictions, the time model from the calibration (--calibration's constants when it has them,
// else the H200 fit; occupancy from the sweep's own calibration).
void print_selection(const ResultsFile& r, const std::string& calibration_path) {
  std::optional<Calibration> cal = r.calibration;
  std::optional<TimeModelParams> prm;
  if (!calibration_path.empty()) {
    const ResultsFile c = read_results(calibration_path);
    if (!c.calibration) throw CommandFailed(calibration_path + ": calibration: missing", 2);
    prm = c.calibration->time_model;
    cal = c.calibration;  // the given calibration's device inputs too (same GPU model, maybe newer probes)
  }
  if (!cal || cal->kernels.empty() || cal->copies.size() < 2) {
    fmt::print("\n(no time-model inputs in this file's calibration: selection regret of the time model not shown)\n");
    return;
  }
  const TimeModelParams params = prm ? *prm : model::h200_params();
  const auto shapes = measured_shapes(r);
  const SelectionReport rep = judge_selection(shapes, picks_for(r, *cal, params));
  fmt::print("\nselection: regret = T(pick) / T(fastest measured candidate) - 1; accuracy: does the pick say "
             "'cluster' exactly where a cluster beats the faster one-CTA kernel; time model constants: {}\n",
             params.fitted_on);
  fmt::print("{}", format_selection_stats(rep));
}

struct SweepShape {
  const WorkloadInfo* w;
  long long m, n;
};

// The kernel sweep's shapes, in the order they are measured (max_bytes leaves some out).
std::vector<SweepShape> sweep_shapes(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& workloads) {
  std::vector<SweepShape> shapes;
  for (const WorkloadInfo* w : workloads)
    for (long long m : row_counts_for(cfg, w->name, w->default_rows))
      for (long long n : cfg.widths) {
        if (cfg.max_bytes > 0 && gpu::compulsory_bytes(*w, m, n) > cfg.max_bytes) {
          spdlog::info("{} {}x{} left out: {:.3g} compulsory bytes > max_bytes {:.3g}", w->name, m, n,
                       gpu::compulsory_bytes(*w, m, n), cfg.max_bytes);
          continue;
        }
        shapes.push_back({w, m, n});
      }
  return shapes;
}

// --dry-run: what the sweep would measure and a rough time, without a GPU. Per shape: the three
// one-CTA kernels, a cluster kernel and a control per cluster size, megakernel and local fusion
// per split, and the copy (an upper bound: points the GPU cannot run are recorded, not timed).
// Each timed point costs (warmup + samples + 1 check) runs of its operands' bytes at 3 TB/s plus
// 5 us of launch, and 20 ms of set-up (allocation, the CPU check of sampled rows, the atomic
// save); a second pass times every kernel point again.
void print_dry_run(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& workloads) {
  constexpr double kBytesPerS = 3e12, kLaunchS = 5e-6, kSetupS = 0.02;
  if (cfg.metric == Metric::HostCompletion) {
    const std::size_t per_shape = 2 * (3 * cfg.splits.size() + cfg.cluster_sizes.size() + 2);
    fmt::print("ladder '{}' (host completion): {} rungs and floors per shape, {} samples each\n", cfg.name,
               per_shape, cfg.samples);
    for (const WorkloadInfo* w : workloads)
      for (long long n : cfg.widths) {
        std::vector<long long> ms = cfg.row_counts;
        if (ms.empty()) ms.push_back(rows_for(cfg, w->name, w->default_rows));
        for (long long m : ms) fmt::print("{:<12} {:>6} {:>7}\n", w->name, m, n);
      }
    return;
  }
  const std::size_t kernels = 3 + cfg.cluster_sizes.size() + 2 * cfg.splits.size();
  const std::size_t per_shape = kernels + cfg.cluster_sizes.size() + 1;
  fmt::print("sweep '{}' (kernel time): at most {} points per shape ({} kernels, {} controls, 1 copy), {} pass(es), "
             "{} warm-up + {} samples each\n",
             cfg.name, per_shape, kernels, cfg.cluster_sizes.size(), cfg.passes, cfg.warmup, cfg.samples);
  fmt::print("{:<12} {:>6} {:>7} {:>7} {:>10} {:>8}\n", "workload", "M", "N", "points", "MB", "est. s");
  double total_s = 0;
  std::size_t total_points = 0;
  for (const SweepShape& sh : sweep_shapes(cfg, workloads)) {
    const double bytes = problem_bytes(*sh.w, sh.m, sh.n);
    const double run_s = bytes / kBytesPerS + kLaunchS;
    const double point_s = kSetupS + double(cfg.warmup + cfg.samples + 1) * run_s;
    const double shape_s = double(per_shape) * point_s + double(cfg.passes - 1) * double(kernels) * point_s;
    fmt::print("{:<12} {:>6} {:>7} {:>7} {:>10.1f} {:>8.1f}\n", sh.w->name, sh.m, sh.n, per_shape, bytes / 1e6,
               shape_s);
    total_s += shape_s;
    total_points += per_shape;
  }
  fmt::print("total: {} points, about {:.0f} s ({:.1f} min) on an H200-class GPU (estimate: per point 20 ms set-up "
             "+ (warmup + samples + 1) x (bytes / 3 TB/s + 5 us))\n",
             total_points, total_s, total_s / 60);
  if (cfg.traffic)
    fmt::print("traffic: then every passed kernel point is profiled once more under Nsight Compute (ncu) for its "
               "DRAM bytes (not in the estimate: a replay takes tens of milliseconds or more)\n");
}

void run_sweep(const SweepArgs& a, const GlobalOptions& g) {
  const CsvOutput csv(a.csv);
  if (!a.summarize.empty()) {  // offline, no GPU
    if (!g.json_path.empty())
      throw CommandFailed("--json: --summarize prints a summary, it writes no JSON (--csv PATH writes its points)", 2);
    ResultsFile r = read_results(a.summarize);
    if (r.kind != "sweep" && r.kind != "ladder")  // a calibration or prediction has no sweep to summarize
      throw CommandFailed(a.summarize + ": kind: a " + r.kind + " file has no sweep to summarize (--summarize takes "
                          "a sweep or ladder file" + (r.kind == "prediction" ? "; re-evaluate it with credit predict "
                          "--from" : "; predict from it with credit predict --calibration") + ")", 2);
    csv.write(points_csv(r.points));
    if (csv.to_stdout()) return;  // stdout holds the CSV alone
    if (r.kind == "ladder") return print_ladder_summary(r);
    if (a.reevaluate) r.predictions = reevaluate(r, {model::Variant::Paper, model::Variant::Refined});
    print_summary(r);
    fmt::print("{}", traffic::traffic_table(r.points));
    print_selection(r, a.calibration);
    std::vector<ResultsFile> others;
    for (const auto& b : a.baselines) others.push_back(read_results(b));
    return print_speedups(r, others);
  }
  const SweepConfig cfg = a.config.empty() ? paper_sweep() : read_sweep_config(a.config);
  // The negative controls are turned away before anything runs (dry run, ladder or sweep).
  refuse_by_structure(cfg.workloads, a.config + ": workloads");
  for (const auto& [name, m] : cfg.rows) refuse_by_structure(find_workload(name), a.config + ": rows." + name);
  if (a.dry_run) {
    std::vector<const WorkloadInfo*> ws;
    if (cfg.workloads.empty())
      for (const auto& w : all_workloads()) ws.push_back(&w);
    else
      for (const auto& n : cfg.workloads) ws.push_back(&find_workload(n));
    return print_dry_run(cfg, ws);
  }
  if (cfg.metric == Metric::HostCompletion) {
    const std::string path = !g.json_path.empty() ? g.json_path : !a.resume.empty() ? a.resume
                                                                                   : "credit-ladder-" + cfg.name + ".json";
    return run_ladder_sweep(cfg, a.resume, path, a.seed, g);
  }
  std::vector<const WorkloadInfo*> workloads;
  if (cfg.workloads.empty())
    for (const auto& w : all_workloads()) workloads.push_back(&w);
  else
    for (const auto& n : cfg.workloads) workloads.push_back(&find_workload(n));
  const std::string path = !g.json_path.empty() ? g.json_path : !a.resume.empty() ? a.resume
                                                                                 : "credit-sweep-" + cfg.name + ".json";
  ResultsFile out;
  if (!a.resume.empty()) {
    out = read_results(a.resume);
    if (out.kind != "sweep") throw CommandFailed(a.resume + ": kind: expected a sweep, got " + out.kind, 2);
  }
  std::optional<traffic::ProfilerSetup> profiler;
  if (cfg.traffic) profiler = traffic_setup(g, a.seed);  // no ncu: exit 3 before the GPU is touched
  const DeviceInfo dev = gpu::use_device(g.device);
  if (!a.resume.empty() && out.device.uuid != dev.uuid)
    throw CommandFailed(a.resume + ": device.uuid: measured on " + out.device.uuid + ", this GPU is " + dev.uuid +
                        ": a sweep resumes on the GPU it started on", 2);
  const std::vector<SweepShape> shapes = sweep_shapes(cfg, workloads);
  for (const SweepShape& sh : shapes)  // before anything is allocated or written
    if (const std::string why = device_memory_problem(*sh.w, sh.m, sh.n, dev); !why.empty())
      throw CommandFailed(why + ": leave it out of the config (widths, rows, max_bytes)", 2);
  if (profiler) check_profiler(*profiler);  // no permission: exit 3 before the timing
  out.kind = "sweep";
  out.meta = meta_of(g);
  out.device = dev;
  if (!out.calibration) out.calibration = calibration_for_device(dev, g.argv, spdlog_log());
  gpu::Timer timer(dev);
  if (out.copy_gbps <= 0) out.copy_gbps = gpu::measure_copy_bandwidth(timer).best();
  write_results(path, out);
  spdlog::info("sweep '{}' -> {} (copy {:.0f} GB/s)", cfg.name, path, out.copy_gbps);

  const auto t0 = std::chrono::steady_clock::now();
  const size_t total = shapes.size() * size_t(cfg.passes);
  size_t done = 0;
  for (int pass = 1; pass <= cfg.passes; ++pass) {
    for (size_t i = 0; i < shapes.size(); ++i) {
      const SweepShape& sh = shapes[i];
      ShapeRunner runner(*sh.w, sh.m, sh.n, dev, timer, cfg, a.seed + i, out, path);
      if (pass == 1) runner.run();
      else runner.repeat();
      ++done;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      spdlog::info("[{}/{}] pass {} {} {}x{} done, {:.0f} s elapsed, ETA {:.0f} s", done, total, pass, sh.w->name,
                   sh.m, sh.n, el, el / double(done) * double(total - done));
    }
  }
  if (profiler) {
    measure_traffic(out.points, *profiler, csv.table_stream());
    write_results(path, out);
  }
  print_summary(out);
  std::vector<ResultsFile> others;
  if (!a.no_python) {
    if (auto torch = run_python_baselines(cfg, workloads, path)) others.push_back(read_results(*torch));
  }
  print_speedups(out, others);
  csv.write(points_csv(out.points));
  size_t bad = 0;
  for (const auto& p : out.points) bad += p.disposition == Disposition::Incorrect || p.disposition == Disposition::Failed;
  if (bad) throw CommandFailed(fmt::format("{} point(s) were incorrect or failed (see {})", bad, path), 1);
}

}  // namespace

void add_run_sweep_command(CLI::App& app, GlobalOptions& g) {
  static SweepArgs a;
  auto* cmd = app.add_subcommand("run-sweep", "the paper's sweep: baselines, clustered kernels, controls and "
                                              "predictions at every shape (needs a GPU)");
  cmd->add_option("--config", a.config, "sweep config (configs/*.json); default: the paper's sweep");
  cmd->add_option("--resume", a.resume, "continue this sweep file, skipping points it already has");
  cmd->add_option("--summarize", a.summarize, "print the summary of a recorded sweep file (no GPU)");
  cmd->add_flag("--reevaluate", a.reevaluate, "with --summarize: predict again with the current model first");
  cmd->add_option("--calibration", a.calibration, "with --summarize: the time model's constants (credit fit-model "
                                                  "--json) for its selection regret");
  cmd->add_option("--baselines", a.baselines, "with --summarize: torch/Triton baseline files for the speed-ups");
  cmd->add_flag("--no-python", a.no_python, "do not run the torch.compile/Triton baselines (scripts/)");
  cmd->add_option("--seed", a.seed, "input seed")->capture_default_str();
  cmd->add_flag("--dry-run", a.dry_run, "list the shapes and points the sweep would measure and a rough time "
                                        "(no GPU)");
  add_csv_option(cmd, a.csv);
  cmd->callback([&g] { run_sweep(a, g); });
}

}  // namespace credit::cli
