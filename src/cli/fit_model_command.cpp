// credit fit-model: fits the time model's constants to recorded sweeps (no GPU), reports how well
// its picks do on them and, with --cv, in leave-one-workload-out cross-validation; --json writes
// the calibration with the fitted constants, which `predict --calibration` then uses.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"
#include "io/json_records.hpp"
#include "sweep/model_selection.hpp"

namespace credit::cli {

namespace {

struct FitArgs {
  std::vector<std::string> sweeps;
  std::string calibration;
  bool cv = false;
};

void print_params(const TimeModelParams& p) {
  fmt::print("cta_us {:.3f}  staging_us {:.3f}  stage_us {:.3f}  cluster_us {:.3f}  barrier_scale {:.3f}  split_cta_gbps {:.2f}  "
             "reread_cta_gbps {:.2f}  register_cta_gbps {:.2f}  l2_share {:.3f}  l2_gbps {:.4g}  col_gbps {:.4g}  sm_work_scale {:.3f}\n",
             p.cta_us, p.staging_us, p.stage_us, p.cluster_us, p.barrier_scale, p.split_cta_gbps, p.reread_cta_gbps,
             p.register_cta_gbps, p.l2_share, p.l2_gbps, p.col_gbps, p.sm_work_scale);
}

void run_fit(const FitArgs& a, const GlobalOptions& g) {
  if (a.sweeps.empty()) throw CommandFailed("fit-model needs at least one sweep file", 2);
  std::vector<std::string> inputs = a.sweeps;
  if (!a.calibration.empty()) inputs.push_back(a.calibration);
  for (const auto& s : inputs)
    if (!g.json_path.empty() && same_file(s, g.json_path))
      throw CommandFailed("--json " + g.json_path + " is one of the input files: refusing to overwrite it", 2);
  std::vector<ResultsFile> files;
  for (const auto& s : a.sweeps) {
    files.push_back(read_results(s));
    if (files.back().kind != "sweep") throw CommandFailed(s + ": kind: expected a sweep, got " + files.back().kind, 2);
  }
  ResultsFile cal_file;
  if (!a.calibration.empty()) {
    cal_file = read_results(a.calibration);
    if (!cal_file.calibration) throw CommandFailed(a.calibration + ": calibration: missing", 2);
  } else {
    cal_file = files.front();
    cal_file.kind = "calibration";
    cal_file.points.clear();
    cal_file.predictions.clear();
    if (!cal_file.calibration) throw CommandFailed(a.sweeps.front() + ": calibration: missing", 2);
  }
  const Calibration& cal = *cal_file.calibration;
  if (cal.kernels.empty() || cal.cluster_slots.empty() || cal.copies.size() < 2)
    throw CommandFailed("the calibration predates the time model's inputs (kernels, cluster slots, copies): "
                        "calibrate again with this build", 2);
  for (size_t i = 0; i < files.size(); ++i)
    if (files[i].device.name != cal.device.name)
      throw CommandFailed(fmt::format("{}: measured on {}, the calibration is of {}: fit on one device's data",
                                      a.sweeps[i], files[i].device.name, cal.device.name), 2);
  std::vector<const ResultsFile*> ptrs;
  for (const auto& f : files) ptrs.push_back(&f);

  ModelFit fit = fit_time_model(ptrs, cal);
  std::string names;
  for (const auto& s : a.sweeps) names += (names.empty() ? "" : ", ") + std::filesystem::path(s).filename().string();
  fit.params.fitted_on = names;
  fmt::print("time model fitted on {} ({} measured kernel points): RMS log error {:.3f}\n", names, fit.samples,
             fit.rms_log_error);
  print_params(fit.params);
  for (size_t i = 0; i < files.size(); ++i) {
    fmt::print("\nselection on {} (the data it was fitted on):\n", a.sweeps[i]);
    const auto shapes = measured_shapes(files[i]);
    fmt::print("{}", format_selection_stats(judge_selection(shapes, picks_for(files[i], cal, fit.params))));
  }
  if (a.cv) {
    fmt::print("\nleave one workload out: fit on the others, judge the left-out workload's shapes\n");
    fmt::print("{:<12} {:>8} {:>6} {:>10} {:>9} {:>6} {:>18} {:>10}\n", "left out", "RMS log", "shapes", "regret gm",
               "max", ">5%", "accuracy", "N* exact");
    std::vector<SelectionReport> reps;
    for (const Fold& f : leave_one_workload_out(ptrs, cal)) {
      fmt::print("{:<12} {:>8.3f} {:>6} {:>9.2f}% {:>8.1f}% {:>6} {:>18} {:>10}\n", f.workload, f.rms_log_error,
                 f.stats.shapes, 100 * f.stats.geomean_regret, 100 * f.stats.max_regret, f.stats.over_5pct,
                 fmt::format("{}/{}", f.stats.right, f.stats.judged),
                 fmt::format("{}/{}", f.stats.n_star_exact, f.stats.n_star_groups));
      SelectionReport r;
      r.stats["time"] = f.stats;
      reps.push_back(r);
    }
    const VariantStats p = pool(reps, "time");
    fmt::print("{:<12} {:>8} {:>6} {:>9.2f}% {:>8.1f}% {:>6} {:>18} {:>10}   worst: {}\n", "pooled", "", p.shapes,
               100 * p.geomean_regret, 100 * p.max_regret, p.over_5pct, fmt::format("{}/{}", p.right, p.judged),
               fmt::format("{}/{}", p.n_star_exact, p.n_star_groups), p.worst);
  }
  if (!g.json_path.empty()) {
    cal_file.kind = "calibration";
    cal_file.meta = meta_of(g);
    cal_file.calibration->time_model = fit.params;
    write_results(g.json_path, cal_file);
    spdlog::info("wrote the calibration with the fitted time model to {}", g.json_path);
  }
}

}  // namespace

void add_fit_model_command(CLI::App& app, GlobalOptions& g) {
  static FitArgs a;
  auto* cmd = app.add_subcommand("fit-model", "fit the time model's constants to recorded sweeps and judge its "
                                              "picks (no GPU); --json writes the calibration with them");
  cmd->add_option("sweeps", a.sweeps, "sweep results files (run-sweep) to fit on")->required();
  cmd->add_option("--calibration", a.calibration,
                  "calibration (or any results file that carries one); default: the first sweep's");
  cmd->add_flag("--cv", a.cv, "also report leave-one-workload-out cross-validation");
  cmd->callback([&g] { run_fit(a, g); });
}

}  // namespace credit::cli
