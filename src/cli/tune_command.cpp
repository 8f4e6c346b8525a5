// credit tune: the time model's shortlist at one shape, timed there. The model ranks every
// candidate from the calibration (as `credit predict`); the --top fastest predicted, and any other
// within --band of the fastest, are checked against the CPU reference and timed at the shape, and
// the fastest passed one is the answer. Several --shape are tuned one after another. Each answer is
// recorded in the GPU's tuning cache (tuning/tuning_cache.hpp), where `credit predict` finds it.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

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
#include "gpu/device_query.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "model/time_model.hpp"
#include "runner/tune_runner.hpp"
#include "sweep/selection.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit::cli {

namespace {

struct TuneArgs {
  std::string workload, calibration, constants, csv;
  std::vector<std::string> shapes;  // --shape, repeated or comma-separated
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

// The cache entry of a tuned shape: its passed candidates as timed, the fastest as the pick.
TuningEntry tuning_entry(const WorkloadInfo& w, const TuneResult& r, const DeviceInfo& dev, const Meta& meta) {
  TuningEntry e;
  e.key = {w.name.substr(0, w.name.find('@')), element_type_name(element_of_name(w.name)), r.prediction.m,
           r.prediction.n};
  for (const SweepPoint& p : r.timed)
    if (p.disposition == Disposition::Passed) e.timed.push_back({p.schedule, p.p, p.time_ms.median});
  const SweepPoint& f = r.timed[*r.fastest];
  e.pick = {f.schedule, f.p, f.time_ms.median};
  e.gpu_name = dev.name;
  e.gpu_uuid = dev.uuid;
  e.build = {meta.git_sha, meta.build_defines};
  e.utc_time = meta.utc_time;
  return e;
}

// Records a tuned shape whose every candidate passed; the cache is a convenience, so a failure is a warning.
void remember(const WorkloadInfo& w, const TuneResult& r, const DeviceInfo& dev, const Meta& meta) {
  const bool all_passed = std::all_of(r.timed.begin(), r.timed.end(),
                                      [](const SweepPoint& p) { return p.disposition == Disposition::Passed; });
  if (!r.fastest || !all_passed) return;
  try {
    const auto file = tuning_cache_path(dev.uuid);
    record_tuning(file, tuning_entry(w, r, dev, meta), spdlog_log());
    spdlog::debug("tuned pick recorded in {}", file.string());
  } catch (const std::exception& e) {
    spdlog::warn("the tuned pick is not recorded in the tuning cache: {}", e.what());
  }
}

void run_tune(const TuneArgs& a, const GlobalOptions& g) {
  prepare_outputs({a.calibration, a.constants}, {{"--json", g.json_path}, {"--csv", a.csv}});
  if (a.workload.empty() || a.shapes.empty()) throw CommandFailed("tune needs --workload and --shape", 2);
  const WorkloadInfo& w = find_workload(a.workload);  // bad input fails before any file or GPU is touched
  refuse_by_structure(w, "--workload");
  std::vector<Shape> shapes;
  for (const auto& s : a.shapes) shapes.push_back(shape_option(s));
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
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& shape = shapes[i];
    if (shapes.size() > 1) spdlog::info("tune {}/{}: {} {}x{}", i + 1, shapes.size(), w.name, shape.m, shape.n);
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
    print_tuned(csv.table_stream(), r);
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
