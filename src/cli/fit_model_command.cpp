// credit fit-model: fits the time model's constants to recorded sweeps (no GPU), reports how well
// its picks do on them and, with --cv, in leave-one-workload-out cross-validation; --json writes
// the calibration with the fitted constants, which `predict --calibration` then uses.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "cli/csv_output.hpp"
#include "io/json_records.hpp"
#include "io/text_table.hpp"
#include "model/time_model.hpp"
#include "sweep/model_selection.hpp"

namespace credit::cli {

namespace {

struct FitArgs {
  std::vector<std::string> sweeps;
  std::vector<std::string> judge;
  std::string calibration;
  std::string csv;
  bool cv = false;
  bool own_calibrations = false;  // each sweep with the calibration recorded in it
  std::vector<std::string> hold;
  std::string start;       // constants to descend from (a file written by fit-model)
  std::string write_with;  // the calibration --json writes the constants with
  std::string loss = "centred";
};

void print_params(std::FILE* out, const TimeModelParams& p) {
  std::string line;
  for (const auto& f : kTimeModelFields) line += fmt::format("{}{} {:.4g}", line.empty() ? "" : "  ", f.name, p.*f.member);
  fmt::print(out, "{}\n", line);
}

// What the options ask for beyond the files: constants held fixed, the loss, and every input file, checked against
// the outputs before anything is read.
struct FitOptions {
  std::vector<model::HeldConstant> held;
  model::FitLoss loss{};
  std::vector<std::string> inputs;  // the sweeps, the judged sweeps, then --calibration, --start, --write-with
};

FitOptions parse_fit_options(const FitArgs& a, const GlobalOptions& g) {
  if (a.sweeps.empty()) throw CommandFailed("fit-model needs at least one sweep file", 2);
  if (a.own_calibrations && a.cv)
    throw CommandFailed("--own-calibrations does not go with --cv (its folds judge with one calibration)", 2);
  FitOptions o;
  for (const auto& h : a.hold) {
    try {
      o.held.push_back(model::parse_held_constant(h));
    } catch (const std::invalid_argument& e) {
      throw CommandFailed(std::string("--hold ") + e.what(), 2);
    }
  }
  try {
    o.loss = model::parse_fit_loss(a.loss);
  } catch (const std::invalid_argument& e) {
    throw CommandFailed(std::string("--loss ") + e.what(), 2);
  }
  refuse_option(!a.write_with.empty() && g.json_path.empty(),
                "--write-with goes with --json (it names the calibration --json writes the fitted constants with)");
  o.inputs = a.sweeps;
  o.inputs.insert(o.inputs.end(), a.judge.begin(), a.judge.end());
  for (const auto* extra : {&a.calibration, &a.start, &a.write_with})
    if (!extra->empty()) o.inputs.push_back(*extra);
  prepare_outputs(o.inputs, {{"--json", g.json_path}, {"--csv", a.csv}});
  return o;
}

// The files the fit reads, each checked on its own, then how they go together.
struct FitFiles {
  std::vector<ResultsFile> files, judged;  // the sweeps fitted on, and those only judged
  std::optional<TimeModelParams> start;
  ResultsFile cal_file;    // the calibration the fit predicts with
  std::string cal_source;  // where it comes from, for messages
  ResultsFile out_file;    // what --json writes the fitted constants with
};

FitFiles read_fit_files(const FitArgs& a, const std::vector<std::string>& inputs) {
  FitFiles r;
  std::vector<ResultsFile>& files = r.files;
  std::vector<ResultsFile>& judged = r.judged;
  std::optional<TimeModelParams>& start = r.start;
  ResultsFile& cal_file = r.cal_file;
  // Every file is read and checked on its own first, each error naming its file, what kind of file it is and what
  // was expected; then how they go together.
  auto read_sweep = [](const std::string& s, const char* role) {
    ResultsFile f = read_results(s);
    if (results_kind(f) != "sweep")  // a torch-baselines file is a sweep file of the peers' points: nothing to fit
      throw CommandFailed(fmt::format("{}{}: kind: expected a sweep (credit run-sweep or bench --json), got {}", role,
                                      s, describe_results_kind(f)), 2);
    return f;
  };
  auto read_calibration = [](const std::string& s, const char* option) {  // --calibration, --write-with
    ResultsFile f = read_results(s);
    if (!f.calibration)
      throw CommandFailed(fmt::format("{} {}: calibration: missing: {} without one, expected a calibration",
                                      option, s, describe_results_kind(f)), 2);
    return f;
  };
  for (const auto& s : a.sweeps) files.push_back(read_sweep(s, ""));
  for (const auto& s : a.judge) judged.push_back(read_sweep(s, "--judge "));
  std::optional<ResultsFile> given_cal, write_with;
  if (!a.calibration.empty()) given_cal = read_calibration(a.calibration, "--calibration");
  if (!a.start.empty()) {
    const ResultsFile s = read_results(a.start);
    if (!s.calibration || !s.calibration->time_model)
      throw CommandFailed(fmt::format("--start {}: no time model constants in it: {}, expected one written by "
                                      "fit-model --json", a.start, describe_results_kind(s)), 2);
    start = s.calibration->time_model;
  }
  if (!a.write_with.empty()) write_with = read_calibration(a.write_with, "--write-with");

  r.cal_source = given_cal ? "--calibration " + a.calibration : a.sweeps.front();
  if (given_cal) {
    cal_file = *given_cal;
  } else {
    cal_file = files.front();
    cal_file.kind = "calibration";
    cal_file.points.clear();
    cal_file.predictions.clear();
    if (!cal_file.calibration)
      throw CommandFailed(a.sweeps.front() + ": calibration: missing: the sweep records none; give --calibration FILE", 2);
  }
  const Calibration& cal = *cal_file.calibration;
  if (!model::has_time_model_inputs(cal))
    throw CommandFailed(r.cal_source + (given_cal ? ": the calibration" : ": the calibration this sweep records") +
                            " predates the time model's inputs (kernel resources, cluster slots, copies): give "
                            "--calibration FILE, a calibration of this GPU model written by this build (credit calibrate "
                            "--json)", 2);
  for (size_t i = 0; i < inputs.size() && i < files.size() + judged.size(); ++i) {
    const ResultsFile& f = i < files.size() ? files[i] : judged[i - files.size()];
    if (f.device.name != cal.device.name)
      throw CommandFailed(fmt::format("{}: measured on {}, the calibration ({}) is of {}: fit on one device's data",
                                      inputs[i], f.device.name, r.cal_source, cal.device.name), 2);
  }
  if (a.own_calibrations)
    for (size_t i = 0; i < files.size() + judged.size(); ++i) {
      const ResultsFile& f = i < files.size() ? files[i] : judged[i - files.size()];
      if (!f.calibration || !model::has_time_model_inputs(*f.calibration))
        throw CommandFailed(inputs[i] + ": --own-calibrations: the sweep records no calibration with the time "
                            "model's inputs", 2);
    }
  ResultsFile& out_file = r.out_file;
  out_file = cal_file;
  if (write_with) {
    out_file = *write_with;
    if (out_file.calibration->device.name != cal.device.name)
      throw CommandFailed(fmt::format("--write-with {}: a calibration of {}, the fit's is of {}", a.write_with,
                                      out_file.calibration->device.name, cal.device.name), 2);
  }
  return r;
}

// Leave-one-workload-out cross-validation: a table of each fold's selection, and with held-out sweeps a second
// judged on them.
void print_cross_validation(std::FILE* out, const std::vector<const ResultsFile*>& ptrs, const Calibration& cal,
                            const std::vector<ResultsFile>& judged, const FitOptions& o,
                            const std::optional<TimeModelParams>& start) {
  const auto& held = o.held;
  const auto loss = o.loss;
  std::vector<const ResultsFile*> held_out;
  for (const auto& f : judged) held_out.push_back(&f);
  const std::vector<Fold> folds = leave_one_workload_out(ptrs, cal, held_out, held, start, loss);
  auto table = [&](const char* title, auto stats_of, bool with_rms) {
    fmt::print(out, "\n{}\n", title);
    // Columns as wide as their content (softmax_dropout_bwd, a typed workload name).
    io::TextTable t({{"left out", io::TextTable::Align::left}, {with_rms ? "RMS log" : ""}, {"shapes"}, {"regret gm"},
                     {"max"}, {">5%"}, {"accuracy"}, {"N* exact"}});
    auto cells = [](const std::string& name, const std::string& rms, const VariantStats& s) {
      return std::vector<std::string>{name, rms, std::to_string(s.shapes), fmt::format("{:.2f}%", 100 * s.geomean_regret),
                                      fmt::format("{:.1f}%", 100 * s.max_regret), std::to_string(s.over_5pct),
                                      fmt::format("{}/{}", s.right, s.judged),
                                      fmt::format("{}/{}", s.n_star_exact, s.n_star_groups)};
    };
    std::vector<SelectionReport> reps;
    for (const Fold& f : folds) {
      const VariantStats& s = stats_of(f);
      t.row(cells(f.workload, with_rms ? fmt::format("{:.3f}", f.rms_log_error) : "", s));
      SelectionReport r;
      r.stats["time"] = s;
      reps.push_back(r);
    }
    const VariantStats p = pool(reps, "time");
    t.row(cells("pooled", "", p), " worst: " + p.worst);
    fmt::print(out, "{}", t.str());
  };
  table("leave one workload out: fit on the others, judge the left-out workload's shapes",
        [](const Fold& f) -> const VariantStats& { return f.stats; }, true);
  if (!judged.empty())
    table("leave one workload out, judged on the held-out sweeps: a workload and shapes the fit never saw",
          [](const Fold& f) -> const VariantStats& { return f.judged; }, false);
}

void run_fit(const FitArgs& a, const GlobalOptions& g) {
  const FitOptions o = parse_fit_options(a, g);
  const auto& held = o.held;
  const auto loss = o.loss;
  const CsvOutput csv(a.csv);
  FitFiles ff = read_fit_files(a, o.inputs);
  const std::vector<ResultsFile>& files = ff.files;
  const std::vector<ResultsFile>& judged = ff.judged;
  const Calibration& cal = *ff.cal_file.calibration;
  ResultsFile& out_file = ff.out_file;
  std::vector<const ResultsFile*> ptrs;
  for (const auto& f : files) ptrs.push_back(&f);

  ModelFit fit = fit_time_model(ptrs, cal, {}, held, ff.start, loss, a.own_calibrations);
  std::string names;
  for (const auto& s : a.sweeps) names += (names.empty() ? "" : ", ") + std::filesystem::path(s).filename().string();
  fit.params.fitted_on = loss == model::FitLoss::Centred ? names : names + " (loss: " + model::fit_loss_name(loss) + ")";
  std::FILE* out = csv.table_stream();
  fmt::print(out, "time model fitted on {} ({} measured kernel points): RMS log error {:.3f}\n", fit.params.fitted_on, fit.samples,
             fit.rms_log_error);
  if (fit.uncovered > 0)
    fmt::print(out, "({} measured points left out of the fit: the calibration has no resources for their kernels)\n",
               fit.uncovered);
  print_params(out, fit.params);
  std::vector<Residual> rows;
  auto judge = [&](const ResultsFile& f, const std::string& path, const char* what) {
    const Calibration& c = a.own_calibrations ? *f.calibration : cal;
    const auto res = residuals(f, std::filesystem::path(path).filename().string(), c, fit.params);
    fmt::print(out, "\nselection on {} ({}; RMS log error {:.3f} over {} points):\n", path, what,
               rms_log_error(res), res.size());
    fmt::print(out, "{}", format_selection_stats(judge_selection(measured_shapes(f), picks_for(f, c, fit.params))));
    rows.insert(rows.end(), res.begin(), res.end());
  };
  for (size_t i = 0; i < files.size(); ++i) judge(files[i], a.sweeps[i], "the data it was fitted on");
  for (size_t i = 0; i < judged.size(); ++i) judge(judged[i], a.judge[i], "held out: not fitted on");
  csv.write(residuals_csv(rows));
  if (a.cv) print_cross_validation(out, ptrs, cal, judged, o, ff.start);
  if (!g.json_path.empty()) {
    out_file.kind = "calibration";
    out_file.points.clear();
    out_file.predictions.clear();
    out_file.meta = meta_of(g);
    out_file.calibration->time_model = fit.params;
    write_results_output(g.json_path, out_file);
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
  cmd->add_option("--judge", a.judge, "held-out sweep files: judge the fitted model's picks on them (not fitted on)");
  cmd->add_flag("--cv", a.cv, "also report leave-one-workload-out cross-validation");
  cmd->add_flag("--own-calibrations", a.own_calibrations, "fit and judge each sweep with the calibration recorded in it "
                "(sweeps measured on several machines, each with its own probes) instead of one calibration");
  cmd->add_option("--hold", a.hold,
                  "NAME=VALUE: keep a constant at VALUE instead of fitting it (a simpler form of the model on new "
                  "data, e.g. work_exposed_share=0 without that term); repeatable");
  cmd->add_option("--start", a.start,
                  "a file written by fit-model --json: descend from its constants (refitting them on more data) "
                  "instead of the built-in starting point");
  cmd->add_option("--loss", a.loss,
                  "what the fit minimises: centred (each shape's candidates' log errors about their mean, plus a "
                  "little of their level; the default) or regret (a smooth form of the selector's regret, anchored "
                  "by the centred loss)");
  cmd->add_option("--write-with", a.write_with,
                  "write --json with this calibration instead of the fit's (e.g. the landing build's own, whose "
                  "kernels' resources the fit's older calibration lacks)");
  add_csv_option(cmd, a.csv)->description("write the model's time beside the measured one at every point of the fitted and "
                                          "judged sweeps as CSV to this path, or - for stdout (the tables then go to stderr)");
  cmd->callback([&g] { run_fit(a, g); });
}

}  // namespace credit::cli
