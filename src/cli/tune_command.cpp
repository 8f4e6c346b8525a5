// credit tune: the time model's shortlist at one shape, timed there. The model ranks every
// candidate from the calibration (as `credit predict`); the --top fastest predicted, and any other
// within --band of the fastest, are checked against the CPU reference and timed at the shape, and
// the fastest passed one is the answer. Many shapes are tuned one after another (--shape repeated, --rows x
// --widths, a sweep config), with progress on stderr and each shape's time and candidate count on stdout. Each answer is
// recorded in the GPU's tuning cache (tuning/tuning_cache.hpp), where `credit predict` finds it.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "calibration/calibration_for_device.hpp"
#include "cli/calibration_option.hpp"
#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/constants_option.hpp"
#include "cli/csv_output.hpp"
#include "cli/list_options.hpp"
#include "cli/output_paths.hpp"
#include "cli/structural_rule.hpp"
#include "core/shape.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"
#include "model/time_model.hpp"
#include "runner/sweep_runner.hpp"
#include "tuning/tune_shape.hpp"
#include "sweep/selection.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit::cli {

namespace {

struct TuneArgs {
  std::string workload, calibration, constants, csv;
  std::vector<std::string> shapes;  // --shape, repeated or comma-separated
  std::string rows, widths;         // --rows x --widths, int lists with ranges
  std::string config;               // a sweep config: its workloads, row counts and widths
  std::vector<std::string> set;  // --set NAME=VALUE
  int top = model::kDefaultShortlist;
  double band = model::kDefaultShortlistBand;
  int samples = 20, warmup = 3;
  std::uint64_t seed = 20261129;
};

void print_tuned(std::FILE* out, const TuneResult& r) {
  const Prediction& pr = r.prediction;
  fmt::print(out, "{} {}x{}: the time model's shortlist ({} candidates), timed here (kernel time, L2 flushed)\n",
             pr.workload, pr.m, pr.n, r.timed.size());
  fmt::print(out, "{:<22} {:>12} {:>12} {:>9}  {}\n", "candidate", "predicted ms", "measured ms", "%copy", "");
  for (std::size_t i = 0; i < r.timed.size(); ++i) {
    const SweepPoint& p = r.timed[i];
    const std::string name = candidate_label(p.schedule, p.p);
    double predicted = 0;
    for (const auto& c : pr.candidates)
      if (c.schedule == p.schedule && c.p == p.p) predicted = c.t_ms;
    if (p.disposition != Disposition::Passed) {
      fmt::print(out, "{:<22} {:>12.4f} {:>12}  {}: {}\n", name, predicted, "-", disposition_name(p.disposition),
                 p.reason);
      continue;
    }
    const std::string note = r.fastest == i ? "<- fastest"
                                            : fmt::format("{:+.1f}% vs fastest",
                                                          100 * (p.time_ms.median / r.timed[*r.fastest].time_ms.median - 1));
    fmt::print(out, "{:<22} {:>12.4f} {:>12.4f} {:>8.1f}%  {}\n", name, predicted, p.time_ms.median, p.pct_of_copy,
               note);
  }
  if (r.fastest) {
    const SweepPoint& f = r.timed[*r.fastest];
    const bool model_right = f.schedule == pr.pick_schedule && f.p == pr.pick_p;
    fmt::print(out, "pick: {} ({:.4f} ms measured){}\n", candidate_label(f.schedule, f.p), f.time_ms.median,
               model_right ? "; the model's own pick" : "; the model picked " + candidate_label(pr.pick_schedule, pr.pick_p));
  }
}

// The GPU time tune spent at a shape, roughly: each candidate's median kernel time x (warm-up + samples + the check).
double kernel_ms(const TuneResult& r, int warmup, int samples) {
  double ms = 0;
  for (const SweepPoint& p : r.timed)
    if (p.time_ms.median > 0) ms += p.time_ms.median * double(warmup + samples + 1);
  return ms;
}

// Records a tuned shape whose every candidate passed; the cache is a convenience, so a failure is a warning.
void remember(const WorkloadInfo& w, const TuneResult& r, const DeviceInfo& dev, const Meta& meta) {
  const std::optional<TuningEntry> entry = tuning_entry(w, r, dev, meta);
  if (!entry) return;
  try {
    const auto file = tuning_cache_path(dev.uuid);
    record_tuning(file, *entry, spdlog_log());
    spdlog::debug("tuned pick recorded in {}", file.string());
  } catch (const std::exception& e) {
    spdlog::warn("the tuned pick is not recorded in the tuning cache: {}", e.what());
  }
}

struct TuneTarget {
  const WorkloadInfo* w;
  Shape shape;
};

// What to tune: --workload at every --shape and every --rows x --widths; or a config's workloads (--workload
// narrows them to one) at its row counts x widths. Every name and number checked before any GPU work.
std::vector<TuneTarget> tune_targets(const TuneArgs& a) {
  std::vector<const WorkloadInfo*> workloads;
  std::vector<Shape> shapes;
  for (const auto& s : a.shapes) shapes.push_back(shape_option(s));
  if ((a.rows.empty()) != (a.widths.empty())) throw CommandFailed("--rows and --widths go together", 2);
  if (!a.rows.empty())
    for (int m : parse_int_list(a.rows))
      for (int n : parse_int_list(a.widths)) shapes.push_back({m, n});
  if (!a.config.empty()) {
    const SweepConfig cfg = read_sweep_config(a.config);
    refuse_option(cfg.metric != Metric::KernelTime, "--config: " + a.config + " is a ladder (host completion), not shapes to tune");
    refuse_by_structure(cfg.workloads, a.config + ": workloads");
    if (!a.workload.empty()) {
      workloads.push_back(&find_workload(a.workload));
    } else {
      for (const WorkloadInfo* w : sweep_workloads(cfg)) workloads.push_back(w);
    }
    std::vector<TuneTarget> out;
    for (const WorkloadInfo* w : workloads) {
      const WorkloadInfo& typed = cfg.element == ElementType::F32 ? *w : in_type(*w, cfg.element);
      refuse_by_structure(typed, "--workload");
      for (long long m : row_counts_for(cfg, typed.declared, typed.default_rows))
        for (long long n : cfg.widths) out.push_back({&typed, {m, n}});
      for (const Shape& sh : shapes) out.push_back({&typed, sh});
    }
    return out;
  }
  if (a.workload.empty() || shapes.empty())
    throw CommandFailed("tune needs --workload and the shapes: --shape, --rows with --widths, or --config FILE", 2);
  const WorkloadInfo& w = find_workload(a.workload);
  refuse_by_structure(w, "--workload");
  std::vector<TuneTarget> out;
  for (const Shape& sh : shapes) out.push_back({&w, sh});
  return out;
}

void run_tune(const TuneArgs& a, const GlobalOptions& g) {
  prepare_outputs({a.calibration, a.constants, a.config}, {{"--json", g.json_path}, {"--csv", a.csv}});
  std::vector<TuneTarget> targets;
  try {
    targets = tune_targets(a);  // bad input fails before any file or GPU is touched
  } catch (const std::invalid_argument& e) {
    throw CommandFailed(e.what(), 2);
  }
  if (a.top < 1) throw CommandFailed(fmt::format("--top: expected at least 1 candidate, got {}", a.top), 2);
  if (!(a.band >= 0 && a.band <= 10)) throw CommandFailed(fmt::format("--band: expected a share from 0 to 10, got {}", a.band), 2);
  check_timing_counts(a.samples, a.warmup);
  const auto sets = parse_set_options(a.set);
  std::optional<Calibration> given;
  if (!a.calibration.empty()) {
    ResultsFile in = read_calibration_option(a.calibration);
    given = std::move(in.calibration);
  }
  if (!a.constants.empty()) read_results(a.constants);  // a missing or corrupt file fails before the GPU is touched
  const DeviceInfo dev = gpu::use_device(g.device);
  if (given && given->device.name != dev.name)
    throw CommandFailed(fmt::format("--calibration: {} was measured on {}, this is {}: calibrate this GPU "
                                    "(credit calibrate)", a.calibration, given->device.name, dev.name), 2);
  Calibration cal = given ? *given : calibration_for_device(dev, g.argv, spdlog_log());
  apply_constants_option(a.constants, cal);
  apply_set_options(sets, cal);
  const CsvOutput csv(a.csv);
  gpu::Timer timer(dev);
  ResultsFile out;
  out.kind = "sweep";
  out.meta = meta_of(g);
  out.device = dev;
  out.calibration = cal;
  out.copy_gbps = gpu::measure_copy_bandwidth(timer).best();
  std::vector<SweepPoint> timed;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const WorkloadInfo& w = *targets[i].w;
    const Shape& shape = targets[i].shape;
    if (targets.size() > 1) spdlog::info("tune {}/{}: {} {}x{}", i + 1, targets.size(), w.name, shape.m, shape.n);
    const auto started = std::chrono::steady_clock::now();
    TuneResult r;
    try {
      r = tune_shape(w, shape.m, shape.n, cal, model::params_of(cal), a.top, a.band, dev, timer,
                     gpu::TimingOptions{a.warmup, a.samples, true}, out.copy_gbps, a.seed, [&](const SweepPoint& p) {
                       out.points.push_back(p);
                       if (rewritable_output(g.json_path)) write_results(g.json_path, out);  // nothing measured is lost
                     });
    } catch (const std::invalid_argument& e) {
      throw CommandFailed(e.what(), 2);
    }
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    print_tuned(csv.table_stream(), r);
    fmt::print(csv.table_stream(), "tuned in {:.2f} s: {} candidates checked and timed, about {:.1f} ms of kernel time\n",
               wall_s, r.timed.size(), kernel_ms(r, a.warmup, a.samples));
    remember(w, r, dev, out.meta);
    timed.insert(timed.end(), r.timed.begin(), r.timed.end());
    out.predictions.push_back(r.prediction);
  }
  csv.write(points_csv(timed));
  if (!g.json_path.empty()) write_results_output(g.json_path, out);
  if (const std::size_t bad = failed_points(out))
    throw CommandFailed(fmt::format("{} shortlisted candidate(s) were incorrect or failed", bad), 1);
}

}  // namespace

void add_tune_command(CLI::App& app, GlobalOptions& g) {
  static TuneArgs a;
  auto* cmd = app.add_subcommand("tune", "the time model's fastest few candidates at a shape, checked and timed "
                                         "there; the fastest is the pick, recorded in the tuning cache (needs a GPU)");
  cmd->add_option("--workload", a.workload, "workload name (see credit list)");
  add_name_list_option(cmd, "--shape", a.shapes, "MxN, e.g. 4096x65536; several are tuned one after another");
  add_int_list_option(cmd, "--rows", a.rows, "row counts M, tuned at every --widths", "16,333,4096");
  add_int_list_option(cmd, "--widths", a.widths, kWidthsHelp, "4096:65536:pow2");
  cmd->add_option("--config", a.config, "tune a sweep config's shapes: its workloads (or --workload) at its row "
                                        "counts x widths (configs/*.json)");
  cmd->add_option("--top", a.top, "time the model's fastest this many candidates ...")->capture_default_str();
  cmd->add_option("--band", a.band, "... and every other predicted within this share of the fastest (0.1: 10%)")
      ->capture_default_str();
  cmd->add_option("--calibration", a.calibration, "rank with this calibration (of this GPU model) instead of the "
                                                  "cached one");
  cmd->add_option("--constants", a.constants, "the time model's constants from this file (credit fit-model --json)");
  add_set_option(cmd, a.set, "");
  cmd->add_option("--samples", a.samples, "timed samples per candidate (median reported)")->capture_default_str();
  cmd->add_option("--warmup", a.warmup, "untimed runs first")->capture_default_str();
  cmd->add_option("--seed", a.seed, "input seed")->check(kNonNegativeInteger)->capture_default_str();
  add_csv_option(cmd, a.csv);
  cmd->callback([&g] { run_tune(a, g); });
}

}  // namespace credit::cli
