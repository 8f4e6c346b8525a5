// credit predict: which schedule to run at one shape. The time model (default, --model time)
// predicts every candidate's time from the calibration alone (cached, or --calibration FILE,
// offline) and picks the fastest. The paper's model (--model paper|refined, Eq. 3-9) needs one
// timing of the CUDA baseline (T_B) and the work-free control per P (T_ctrl) on the GPU; with
// --from FILE it re-evaluates a recorded prediction file offline. Where `credit tune` measured the shape
// on this GPU with this build (the tuning cache, or --tuning FILE), the pick is the measured one.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "calibration/calibration_for_device.hpp"
#include "cli/calibration_option.hpp"
#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "cli/constants_option.hpp"
#include "cli/csv_output.hpp"
#include "cli/list_options.hpp"
#include "cli/structural_rule.hpp"
#include "core/shape.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "io/text_table.hpp"
#include "io/meta.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"
#include "runner/paper_prediction.hpp"
#include "sweep/selection.hpp"
#include "gpu/launch/device_fit.hpp"
#include "sweep/reevaluate.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit::cli {

namespace {

struct PredictArgs {
  // model "" means the time model, or the paper's with --from (which re-evaluates recorded predictions).
  std::string workload, shape, ps = "2,4,8,16", model, from, calibration, constants, dtype = "f32", tuning;
  bool tuning_any_build = false;  // --tuning-any-build
  std::vector<std::string> set;  // --set NAME=VALUE
  std::vector<std::string> also;  // --schedule: schedules the time model has a term for but may not pick
  std::string csv;  // --csv PATH or -
  std::uint64_t seed = 20261129;
  bool seed_given = false, dtype_given = false;  // on the command line
};

void print_prediction(std::FILE* out, const Prediction& pr) {
  fmt::print(out, "{} {}x{}: model {}, CUDA baseline {} T_B = {:.4f} ms\n", pr.workload, pr.m, pr.n, pr.model,
             candidate_label(pr.baseline, 1), pr.t_b_ms);
  fmt::print(out, "{:>3} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}  {}\n", "P", "legal", "T_save", "T_ctrl",
             "T_replay", "T_DSM", "T_depos.", "dT", "verdict (ms)");
  for (const auto& r : pr.rows) {
    if (!r.legal || !r.reason.empty()) {
      fmt::print(out, "{:>3} {:>6}  {}\n", r.p, r.legal ? "yes" : "no", r.reason);
      continue;
    }
    fmt::print(out, "{:>3} {:>6} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.5f} {:>9.4f} {:>10.4f}  {}\n", r.p, "yes", r.t_save_ms,
               r.t_ctrl_ms, r.t_replay_ms, r.t_dsm_ms, r.t_deposit_ms, r.dt_ms,
               r.profitable ? "profitable" : "not profitable");
  }
  if (pr.best_p) fmt::print(out, "predicted best P = {}\n", *pr.best_p);
  else fmt::print(out, "predicted: stay with the non-clustered kernel (no legal P has dT > 0)\n");
}

// The time model's table, its columns as wide as their content (a large shape's waves or DRAM MB included).
io::TextTable candidate_table() {
  using io::TextTable;
  return TextTable({{"candidate", TextTable::Align::left}, {"legal"}, {"CTAs/SM"}, {"rows/wave"}, {"waves"},
                    {"T ms"}, {"DRAM MB"}});
}

// One row of the time model's table: a refused candidate with its reason, else its figures and `note`.
void add_candidate_row(io::TextTable& t, const CandidateTime& c, const std::string& note) {
  const std::string name = candidate_label(c.schedule, c.p);
  if (!c.legal) return t.row({name, "no"}, c.reason);
  t.row({name, "yes", fmt::format("{}", c.ctas_per_sm), fmt::format("{}", c.resident_rows), fmt::format("{}", c.waves),
         fmt::format("{:.4f}", c.t_ms), fmt::format("{:.1f}", c.hbm_bytes / 1e6)},
        note);
}

std::string versus_pick(const Prediction& pr, const CandidateTime& c) {
  return pr.pick_schedule.empty() ? "" : fmt::format("{:+.1f}% vs pick", 100 * (c.t_ms / pr.pick_ms - 1));
}

// The rows of schedules asked for with --schedule that are not candidates: shown, never picked.
void print_also(std::FILE* out, const Prediction& pr, const std::vector<CandidateTime>& also) {
  if (also.empty()) return;
  fmt::print(out, "not candidates (predicted as asked, never picked):\n");
  io::TextTable t = candidate_table();
  for (const auto& c : also) add_candidate_row(t, c, versus_pick(pr, c));
  fmt::print(out, "{}", t.str());
}

// --schedule: each named schedule the time model has a term for; the candidates among them are in the table
// already, the others are predicted at every P they take (of the cluster sizes asked, or split_global's).
std::vector<CandidateTime> also_predicted(const std::vector<std::string>& names, const WorkloadInfo& w,
                                          const Calibration& cal, const TimeModelParams& prm, const Shape& shape,
                                          const std::vector<int>& ps) {
  std::vector<CandidateTime> out;
  const model::CopyLine copy = model::copy_line(cal.copies);
  for (const auto& name : names) {
    const ScheduleTraits& t = traits_of(parse_schedule(name));
    if (t.candidate) continue;
    for (int p : ps_to_time(t.id, ps, spread_splits()))
      out.push_back(model::candidate_time(w.figures, w.name, cal, prm, copy, t.name, p, shape.m, shape.n));
  }
  return out;
}

// The pick line of a shape `credit tune` measured (here, or at neighbouring M's of the same class).
void print_measured_pick(std::FILE* out, const Prediction& pr, const TuningAnswer& t) {
  const TuningEntry& e = *t.entry;
  const std::string where = t.exact ? "" : fmt::format(" at M = {}", e.key.m);
  const std::string why = t.exact ? "" : ": " + t.reason;
  fmt::print(out, "pick: {} (measured by credit tune{} on {}, {:.4f} ms{}); the model picks {} ({:.4f} ms)\n",
             candidate_label(e.pick.schedule, e.pick.p), where, e.utc_time.substr(0, 10), e.pick.ms, why,
             candidate_label(pr.pick_schedule, pr.pick_p), pr.pick_ms);
}

void print_time_prediction(std::FILE* out, const Prediction& pr, const StaticFigures& f, const TimeModelParams& prm,
                           const TuningAnswer& measured) {
  fmt::print(out, "{} {}x{}: time model (constants: {})\n", pr.workload, pr.m, pr.n, prm.fitted_on);
  io::TextTable t = candidate_table();
  const auto& cs = pr.candidates;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const CandidateTime& c = cs[i];
    if (!c.legal) {  // one row for a schedule's run of sizes refused for the same reason (a calibration older than
                     // the schedule's kernels refuses each of its sizes)
      std::string ps = std::to_string(c.p);
      const std::size_t first = i;
      while (i + 1 < cs.size() && !cs[i + 1].legal && cs[i + 1].schedule == c.schedule && cs[i + 1].reason == c.reason)
        ps += "," + std::to_string(cs[++i].p);
      if (i == first)
        add_candidate_row(t, c, "");
      else
        t.row({c.schedule, "no"}, "P=" + ps + ": " + c.reason);
      continue;
    }
    const bool pick = c.schedule == pr.pick_schedule && c.p == pr.pick_p;
    const std::string probe = c.probe_scale != 1 ? fmt::format(" (kernel probe x{:.3f})", c.probe_scale) : "";
    add_candidate_row(t, c, (pick ? "<- pick" : versus_pick(pr, c)) + probe);
  }
  fmt::print(out, "{}", t.str());
  if (pr.pick_schedule.empty()) {
    fmt::print(out, "no candidate can run at this shape\n");
    return;
  }
  if (measured.entry)
    print_measured_pick(out, pr, measured);
  else
    fmt::print(out, "pick: {} ({:.4f} ms); the one-CTA kernel a cluster must beat: {} ({:.4f} ms)\n",
               candidate_label(pr.pick_schedule, pr.pick_p), pr.pick_ms, candidate_label(pr.baseline, 1), pr.t_b_ms);
  // The shortlist is ranked fastest first and holds at least the kDefaultShortlist (>= 2) fastest: the pick,
  // then the runner-up.
  const auto top = model::shortlist(pr, f, model::kDefaultShortlist, model::kDefaultShortlistBand);
  if (top.size() >= 2) {
    const double gap = top[1].t_ms / top[0].t_ms - 1;
    fmt::print(out, "runner-up: {} at +{:.1f}%{}\n", candidate_label(top[1].schedule, top[1].p), 100 * gap,
               gap < model::kDefaultShortlistBand
                   ? fmt::format(": inside the model's error on held-out shapes (about {:.0f}% a candidate, one "
                                 "standard deviation), so either may be the faster; `credit tune` times them",
                                 100 * model::kHeldOutScatter)
                   : "");
  }
  std::string listed;
  for (const auto& c : top) listed += (listed.empty() ? "" : ", ") + candidate_label(c.schedule, c.p);
  fmt::print(out, "shortlist (what `credit tune` checks and times at this shape): {}\n", listed);
}

// The time model's constants: the calibration's own (credit fit-model), else the H200 fit.
TimeModelParams params_for(const Calibration& cal) {
  if (!cal.time_model && cal.device.name.find("H200") == std::string::npos)
    spdlog::warn("the calibration of {} carries no fitted time model: using the H200's constants; fit this "
                 "device's with `credit fit-model` on a sweep", cal.device.name);
  return model::params_of(cal);
}

// --P as cluster sizes, each checked.
std::vector<int> cluster_sizes_of(const std::string& list) {
  std::vector<int> ps = parse_int_list(list);
  for (int p : ps)
    if (!is_cluster_size(p)) throw CommandFailed(fmt::format("--P: illegal cluster size {}: takes 2, 4, 8, 16", p), 2);
  return ps;
}

// What `credit tune` measured at the shape on the GPU `gpu_uuid` with this build: from --tuning FILE, else
// from that GPU's tuning cache (online only: offline there is no GPU to name it by). Why none goes to the log.
TuningAnswer measured_pick(const PredictArgs& a, const WorkloadInfo& w, const Shape& shape, const std::string& gpu_uuid,
                           bool online) {
  if (a.tuning.empty() && !online) return {};
  std::filesystem::path file = a.tuning;
  try {
    if (file.empty()) file = tuning_cache_path(gpu_uuid);
  } catch (const std::exception& e) {
    spdlog::debug("no tuning cache: {}", e.what());
    return {};
  }
  std::error_code ec;
  if (!a.tuning.empty() && !std::filesystem::exists(file, ec))
    spdlog::warn("--tuning {}: no such file, the model picks", a.tuning);
  const TuningKey key{w.name.substr(0, w.name.find('@')), element_type_name(element_of_name(w.name)), shape.m, shape.n};
  const TuningScope scope{gpu_uuid, this_build_identity(), a.tuning_any_build};
  TuningAnswer t = lookup_nearest(load_tuning(file, spdlog_log()), key, scope);
  if (!t.entry && !a.tuning.empty()) spdlog::info("--tuning {}: {}; the model picks", a.tuning, t.reason);
  return t;
}

// The time model at one shape from a calibration: no GPU.
void run_time_model(const PredictArgs& a, const GlobalOptions& g, const WorkloadInfo& w, const Shape& shape,
                    const std::vector<int>& ps, const Calibration& cal, ResultsFile res, bool online) {
  const TimeModelParams prm = params_for(cal);
  Prediction pr;
  std::vector<CandidateTime> also;
  try {
    pr = model::predict_times(w.figures, w.name, cal, prm, shape.m, shape.n, ps);
    also = also_predicted(a.also, w, cal, prm, shape, ps);
  } catch (const std::invalid_argument& e) {
    throw CommandFailed(std::string("--calibration: ") + e.what(), 2);
  }
  if (!pr.pick_schedule.empty() && !std::isfinite(pr.pick_ms))  // a calibration or constant no device has
    throw CommandFailed(fmt::format("--calibration {}: the predicted times are not finite (the pick, {}, at {} ms): "
                                    "check its device figures and constants", a.calibration.empty() ? "(this device's)" : a.calibration,
                                    candidate_label(pr.pick_schedule, pr.pick_p), pr.pick_ms), 2);
  if (model::uses_kernel_probes(prm) && !cal.kernel_probes.count(w.name))
    spdlog::warn("the calibration has no kernel probes of {} (written by an older build, or before the workload was "
                 "declared): its kernels are predicted by the formula alone; run `credit calibrate` with this build",
                 w.name);
  const TuningAnswer measured =
      pr.pick_schedule.empty() ? TuningAnswer{} : measured_pick(a, w, shape, cal.device.uuid, online);
  const CsvOutput csv(a.csv);
  print_time_prediction(csv.table_stream(), pr, w.figures, prm, measured);
  print_also(csv.table_stream(), pr, also);
  Prediction with_also = pr;  // the CSV lists them too (pick false); the JSON keeps the candidates only
  with_also.candidates.insert(with_also.candidates.end(), also.begin(), also.end());
  csv.write(candidates_csv({with_also}));
  if (!g.json_path.empty()) {
    res.kind = "prediction";
    res.meta = meta_of(g);
    res.points.clear();
    res.predictions = {pr};
    write_results_output(g.json_path, res);
  }
  if (pr.pick_schedule.empty()) throw CommandFailed("no candidate schedule can run at " + a.shape, 2);
}

// Offline: every shape predicted in the file, re-evaluated with the chosen model variant.
void run_from_file(const PredictArgs& a, const GlobalOptions& g) {
  if (!a.workload.empty()) find_workload(a.workload);  // an unknown name is an error, not an empty filter
  ResultsFile in = read_results(a.from);
  std::vector<Prediction> out;
  try {
    out = reevaluate(in, {model::parse_variant(a.model)}, a.workload);
  } catch (const MissingInput& e) {
    throw CommandFailed(a.from + ": " + e.what(), 2);
  }
  if (out.empty() && !a.workload.empty() && !in.predictions.empty())
    throw CommandFailed(a.from + ": no recorded prediction of --workload " + a.workload, 2);
  if (!a.shape.empty()) {  // a filter, as --workload is
    const Shape shape = shape_option(a.shape);
    std::erase_if(out, [&](const Prediction& p) { return p.m != shape.m || p.n != shape.n; });
    if (out.empty()) throw CommandFailed(a.from + ": no recorded prediction at --shape " + a.shape, 2);
  }
  if (a.ps != "2,4,8,16") {  // --P given: a filter of the rows, as --shape is of the shapes
    const std::vector<int> keep = cluster_sizes_of(a.ps);
    for (auto& p : out) {
      std::erase_if(p.rows, [&](const PredictionRow& r) { return std::find(keep.begin(), keep.end(), r.p) == keep.end(); });
      p.best_p = model::best_profitable_p(p.rows);  // the model's pick among the rows kept
    }
  }
  if (out.empty()) throw CommandFailed(a.from + ": predictions: none to re-evaluate", 2);
  const CsvOutput csv(a.csv);
  for (const auto& p : out) print_prediction(csv.table_stream(), p);
  csv.write(prediction_rows_csv(out));
  if (!g.json_path.empty()) {
    ResultsFile res = in;
    res.meta = meta_of(g);
    res.predictions = out;
    write_results_output(g.json_path, res);
  }
}

void run_predict(PredictArgs a, const GlobalOptions& g) {
  prepare_outputs({a.from, a.calibration, a.constants, a.tuning}, {{"--json", g.json_path}, {"--csv", a.csv}});
  if (a.model.empty()) a.model = a.from.empty() ? "time" : "paper";
  refuse_option(a.model != "time" && !a.tuning.empty(), "--tuning goes with --model time (not --from)");
  refuse_option(a.tuning_any_build && a.tuning.empty(), "--tuning-any-build goes with --tuning FILE");
  if (a.model != "time" && a.model != "paper" && a.model != "refined")
    throw CommandFailed("--model: expected time, paper, refined, got '" + a.model + "'", 2);
  if (!a.from.empty()) {
    if (a.model == "time")
      throw CommandFailed("--from re-evaluates the paper's model (--model paper|refined); the time model needs only "
                          "--calibration FILE", 2);
    if (!a.calibration.empty())
      throw CommandFailed("--calibration goes with --model time; --from re-evaluates the file's own measurements", 2);
    if (!a.constants.empty() || !a.set.empty() || !a.also.empty())
      throw CommandFailed(std::string(!a.constants.empty() ? "--constants" : !a.set.empty() ? "--set" : "--schedule") +
                              " goes with --model time, not --from", 2);
    // The recorded predictions carry their own workload type and inputs: these would change nothing.
    refuse_option(a.dtype_given, "--dtype: --from re-evaluates the file's predictions in their own element type");
    refuse_option(a.seed_given, "--seed: --from re-evaluates recorded measurements, it draws no inputs");
    refuse_device(g, "--from re-evaluates a results file, offline");
    return run_from_file(a, g);
  }
  // The time model times nothing (its inputs are the calibration's); --calibration FILE reads no GPU at all.
  if (a.model == "time") refuse_option(a.seed_given, "--seed goes with --model paper|refined (the time model times nothing)");
  if (a.model == "time" && !a.calibration.empty()) refuse_device(g, "predict --calibration FILE predicts offline");
  if (a.workload.empty() || a.shape.empty())
    throw CommandFailed("predict needs --workload and --shape (or --from FILE)", 2);
  const ElementType element = element_type_option(a.dtype);
  const WorkloadInfo& declared = find_workload(a.workload);  // bad input fails before any file or GPU is touched
  refuse_by_structure(declared, "--workload");  // a negative control: rejected by rule, no model arithmetic
  const WorkloadInfo& w = element == ElementType::F32 ? declared : in_type(declared, element);
  const Shape shape = shape_option(a.shape);
  const std::vector<int> ps = cluster_sizes_of(a.ps);
  for (const auto& s : a.also) {  // before any file or GPU is touched
    if (!find_schedule(s)) throw CommandFailed("--schedule: unknown schedule '" + s + "' (known: " + known_schedules() + ")", 2);
    if (!model::is_modelled_schedule(s))
      throw CommandFailed("--schedule: the time model has no term for " + s + " (it predicts the candidates and split_global)", 2);
  }
  if (!a.also.empty() && a.model != "time") throw CommandFailed("--schedule goes with --model time", 2);
  if (a.model == "time") {
    const auto sets = parse_set_options(a.set);
    if (!a.calibration.empty()) {
      ResultsFile in = read_calibration_option(a.calibration);
      apply_constants_option(a.constants, *in.calibration);
      apply_set_options(sets, *in.calibration);
      return run_time_model(a, g, w, shape, ps, *in.calibration, in, false);
    }
    const DeviceInfo dev = gpu::use_device(g.device);
    ResultsFile res;
    res.device = dev;
    res.calibration = calibration_for_device(dev, g.argv, spdlog_log());
    apply_constants_option(a.constants, *res.calibration);
    apply_set_options(sets, *res.calibration);
    return run_time_model(a, g, w, shape, ps, *res.calibration, res, true);
  }
  for (const auto& [option, value] : {std::pair{"--calibration", &a.calibration}, std::pair{"--constants", &a.constants}})
    if (!value->empty())
      throw CommandFailed(std::string(option) + " goes with --model time; the paper's model measures T_B and T_ctrl here", 2);
  if (!a.set.empty()) throw CommandFailed("--set goes with --model time; the paper's model has no such constants", 2);
  const model::Variant v = model::parse_variant(a.model);

  const CsvOutput csv(a.csv);
  const DeviceInfo dev = gpu::use_device(g.device);
  if (const std::string why = device_memory_problem(w, shape.m, shape.n, dev); !why.empty())
    throw CommandFailed(why, 2);
  const Calibration cal = calibration_for_device(dev, g.argv, spdlog_log());
  const ResultsFile res = measure_paper_prediction(w, shape.m, shape.n, ps, v, dev, cal, meta_of(g), a.seed);
  print_prediction(csv.table_stream(), res.predictions.back());
  csv.write(prediction_rows_csv(res.predictions));
  if (!g.json_path.empty()) write_results_output(g.json_path, res);
}

}  // namespace

void add_predict_command(CLI::App& app, GlobalOptions& g) {
  static PredictArgs a;
  auto* cmd = app.add_subcommand("predict", "which schedule to run at one shape: every candidate's predicted time "
                                            "and the pick (offline with --calibration FILE)");
  cmd->add_option("--workload", a.workload, "workload name (see credit list)");
  cmd->add_option("--shape", a.shape, "MxN, e.g. 4096x65536");
  cmd->add_option("--dtype", a.dtype, "element type of the row tensors: f32, bf16 or f16 (the workload named "
                                      "<name>@bf16 and so on; bf16 and f16 predict the schedules built in them)")
      ->capture_default_str();
  add_int_list_option(cmd, "--P", a.ps,
                      "cluster sizes (split_global takes its own: the powers of two to 128 whose slices fit)",
                      "2,4,8,16");
  cmd->add_option("--model", a.model, "time (the default: every candidate's time, from the calibration), paper or "
                                      "refined (Eq. 3-9, measures T_B and T_ctrl; the default with --from)");
  cmd->add_option("--calibration", a.calibration, "with --model time: predict offline from this calibration "
                                                  "(or any results file that carries one)");
  cmd->add_option("--constants", a.constants, "with --model time: the time model's constants from this file (credit "
                                              "fit-model --json) instead of the calibration's own");
  add_set_option(cmd, a.set, "with --model time: ");
  add_name_list_option(cmd, "--schedule", a.also,
                       "with --model time: also predict these schedules at every P they take: a schedule with a "
                       "term that is not a candidate is shown after the pick and never picked (none today; the "
                       "candidates are in the table already)");
  cmd->add_option("--tuning", a.tuning, "with --model time: the tuning cache file to answer from (credit cache "
                                        "export); its entries of the calibration's GPU and this build are used");
  cmd->add_flag("--tuning-any-build", a.tuning_any_build, "with --tuning: use its entries whatever build measured "
                                                          "them (the GPU must still match)");
  cmd->add_option("--from", a.from, "re-evaluate the predictions recorded in this results file, offline");
  cmd->add_option("--seed", a.seed, "input seed of the baseline timing")->check(kNonNegativeInteger)->capture_default_str();
  add_csv_option(cmd, a.csv);
  cmd->callback([cmd, &g] {
    a.seed_given = cmd->get_option("--seed")->count() > 0;
    a.dtype_given = cmd->get_option("--dtype")->count() > 0;
    run_predict(a, g);
  });
}

}  // namespace credit::cli
