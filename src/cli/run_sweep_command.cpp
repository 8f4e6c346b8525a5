// credit run-sweep: the paper's evaluation on this GPU, run by runner/sweep_runner.hpp (the
// ladder by runner/ladder_runner.hpp). For every (workload, N): check and time the CUDA baselines
// and every legal clustered P, time the work-free controls, then predict with both model variants.
// Records are written atomically as they complete; --resume skips every point already in the
// file, so an interrupted sweep loses nothing it measured. Here: the options, the order of the
// checks (and so the exit status), the printed summaries.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>

#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/constants_option.hpp"
#include "cli/csv_output.hpp"
#include "cli/ladder_sweep.hpp"
#include "cli/list_options.hpp"
#include "cli/output_paths.hpp"
#include "cli/structural_rule.hpp"
#include "cli/traffic_option.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "io/atomic_write.hpp"
#include "io/csv.hpp"
#include "io/text_table.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/profitability.hpp"
#include "model/time_model.hpp"
#include "runner/ladder_runner.hpp"
#include "runner/python_baselines.hpp"
#include "runner/sweep_runner.hpp"
#include "sweep/model_selection.hpp"
#include "sweep/model_vs_measured.hpp"
#include "sweep/reevaluate.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_summary.hpp"
#include "traffic/traffic_table.hpp"

namespace credit::cli {

namespace {

struct SweepArgs {
  std::string config, resume, summarize, calibration, constants, dtype;
  std::vector<std::string> set;  // with --summarize: --set NAME=VALUE
  bool reevaluate = false, no_python = false, dry_run = false;
  std::string csv;  // --csv PATH or -
  std::vector<std::string> baselines;  // with --summarize: torch/Triton baseline files
  std::string model_vs_measured;  // with --summarize: a schedule whose measured / predicted times to print
  std::uint64_t seed = 20261129;
  bool seed_given = false;  // --seed on the command line
};


std::string p_or_none(const std::optional<int>& p) { return p ? std::to_string(*p) : "-"; }
std::string n_or_none(const std::optional<long long>& n) { return n ? std::to_string(*n) : "none"; }

// The summary's text is built whole before any of it is printed: an input that fails a check, or a figure that cannot
// be computed, leaves stdout empty. Each table starts with its own blank line; the first one's is dropped.
using Text = std::string;
template <class... Args>
void add(Text& out, fmt::format_string<Args...> f, Args&&... args) {
  fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
}

using io::TextTable;
constexpr TextTable::Align kLeft = TextTable::Align::left;
std::string str(long long v) { return std::to_string(v); }

// credit's fastest schedule against the fastest peer (torch.compile, Triton), per (M, N).
Text format_peers(const ResultsFile& r, const std::vector<ResultsFile>& others) {
  const PeerTable t = credit_vs_peers(r, others);
  Text out;
  if (t.geomean.empty()) return out;
  add(out, "\ncredit's fastest schedule against the fastest of torch.compile and Triton (T_peer / T_credit);\n"
           "ceiling: T_peer over the compulsory bytes' time at this run's copy bandwidth (what a kernel moving\n"
           "only those bytes at that bandwidth would reach); copy: T_peer over credit's copy of the same bytes\n");
  auto or_dash = [](const auto& m, const auto& k) { return m.count(k) ? fmt::format("{:.3f}x", m.at(k)) : "-"; };
  TextTable table({{"M"}, {"N"}, {"geomean"}, {"worst"}, {"workloads"}, {"ceiling"}, {"copy"}});
  for (const auto& [mn, g] : t.geomean)
    table.row({str(mn.first), str(mn.second), fmt::format("{:.3f}x", g), fmt::format("{:.3f}x", t.worst.at(mn)),
               str(t.count.at(mn)), or_dash(t.ceiling, mn), or_dash(t.copy, mn)});
  out += table.str();
  for (const auto& s : t.shapes)
    if (s.t_peer / s.t_credit < 0.97)
      add(out, "  below 0.97x: {} {}x{}: credit {} {:.4f} ms, {} {:.4f} ms\n", s.workload, s.m, s.n, s.credit_schedule,
          s.t_credit, s.peer_schedule, s.t_peer);
  return out;
}

// credit's fastest candidate against the copy of the same bytes, per (M, N).
Text format_copy_fraction(const ResultsFile& r) {
  const CopyFractionTable t = credit_vs_copy(r);
  Text out;
  if (t.geomean.empty()) return out;
  add(out, "\ncredit's fastest candidate as % of the copy bandwidth (T_copy / T_credit, credit's copy of the same\n"
           "bytes in the same run): geomean over the workloads and the lowest shape\n");
  TextTable table({{"M"}, {"N"}, {"geomean"}, {"lowest"}, {"workloads"}, {"lowest at", kLeft}});
  for (const auto& [mn, g] : t.geomean) {
    const CopyFraction& lo = t.lowest.at(mn);
    table.row({str(mn.first), str(mn.second), fmt::format("{:.1f}%", 100 * g), fmt::format("{:.1f}%", 100 * lo.fraction),
               str(t.count.at(mn)), fmt::format("{} ({})", lo.workload, lo.schedule)});
  }
  return out + table.str();
}

Text format_speedups(const ResultsFile& r, const std::vector<ResultsFile>& others) {
  Text out = format_copy_fraction(r) + format_peers(r, others);
  const SpeedupTable t = speedups(r, others);
  add(out, "\ngeomean speed-up of the best clustered P over each baseline (T_baseline / T_CREDIT), per (M, N) over "
           "the workloads\n");
  TextTable table({{"M"}, {"N"}, {"baseline speed-up (workloads)", kLeft}});
  for (const auto& [mn, by] : t.shape_geomean) {
    std::string line;
    for (const auto& [name, g] : by)
      line += fmt::format("{}{} {:.3f}x ({})", line.empty() ? "" : "  ", name, g, t.shape_count.at(mn).at(name));
    table.row({str(mn.first), str(mn.second), line});
  }
  return out + table.str();
}

// "P=8 0.0150 (1.17x)": the time over `base`'s, when given.
std::string split_or_none(const std::optional<BestSplit>& b, const std::optional<BestSplit>& base) {
  if (!b) return "-";
  const std::string vs = base ? fmt::format(" ({:.2f}x)", b->ms / base->ms) : "";
  return fmt::format("P={} {:.4f}{}", b->p, b->ms, vs);
}

// Only when the file has megakernel or local fusion points ("splits" in the config).
Text format_exchange_comparison(const ResultsFile& r) {
  const auto rows = compare_exchanges(r);
  Text out;
  if (rows.empty()) return out;
  add(out, "\nDSMEM against global-memory exchange: fastest passed P, ms (time / cluster's)\n");
  TextTable table({{"workload", kLeft}, {"M"}, {"N"}, {"cluster (DSMEM)"}, {"megakernel"}, {"local fusion"}});
  for (const auto& c : rows)
    table.row({c.workload, str(c.m), str(c.n), split_or_none(c.cluster, {}), split_or_none(c.megakernel, c.cluster),
               split_or_none(c.local_fusion, c.cluster)});
  return out + table.str();
}

// Per shape (workload, M, N) the baseline, the fastest cluster and each paper model's pick; per workload N*.
Text format_summary(const ResultsFile& r) {
  const SweepSummary s = summarize_sweep(r);
  TextTable shapes({{"workload", kLeft}, {"M"}, {"N"}, {"baseline", kLeft}, {"T_base ms"}, {"best P"}, {"T_best ms"},
                    {"measured"}, {"paper P"}, {"refin. P"}});
  for (const auto& v : s.shapes)
    shapes.row({v.workload, str(v.m), str(v.n), v.baseline, fmt::format("{:.4f}", v.t_baseline_ms), p_or_none(v.best_p),
                fmt::format("{:.4f}", v.t_best_ms), v.measured_profitable ? "wins" : "loses",
                p_or_none(v.predicted_p.count("paper") ? v.predicted_p.at("paper") : std::nullopt),
                p_or_none(v.predicted_p.count("refined") ? v.predicted_p.at("refined") : std::nullopt)});
  TextTable workloads({{"workload", kLeft}, {"measured N*"}, {"paper N*"}, {"refined N*"}, {"paper right"},
                       {"refined right"}});
  for (const auto& wl : s.workloads) {
    auto ns = [&](const char* v) { return n_or_none(wl.predicted_n_star.count(v) ? wl.predicted_n_star.at(v) : std::nullopt); };
    auto ok = [&](const char* v) { return fmt::format("{}/{}", wl.correct.count(v) ? wl.correct.at(v) : 0, wl.shapes); };
    workloads.row({wl.workload, n_or_none(wl.measured_n_star), ns("paper"), ns("refined"), ok("paper"), ok("refined")});
  }
  Text out = "\n" + shapes.str() + "\n" + workloads.str();
  for (const char* v : {"paper", "refined"}) {
    const int c = s.correct.count(v) ? s.correct.at(v) : 0;
    add(out, "model {}: {}/{} shapes right ({:.1f}%), N* exact for {}/{} workloads\n", v, c, s.total,
        s.total ? 100.0 * c / s.total : 0.0, s.exact_n_star.count(v) ? s.exact_n_star.at(v) : 0, s.workloads.size());
  }
  return out + format_exchange_comparison(r);
}

// The time model's inputs for --summarize's selection table: --calibration's, else the sweep's own; then --constants
// and --set. Every file read and checked here, before anything is printed.
struct SelectionInputs {
  std::optional<Calibration> cal;  // absent: no time-model inputs, the table is not shown
};

SelectionInputs selection_inputs(const ResultsFile& r, const SweepArgs& a,
                                 const std::vector<model::HeldConstant>& sets) {
  std::optional<Calibration> cal = r.calibration;
  if (!a.calibration.empty()) {
    const ResultsFile c = read_results(a.calibration);
    if (!c.calibration)
      throw CommandFailed("--calibration " + a.calibration + ": calibration: missing: " + describe_results_kind(c) +
                              " without one, expected a calibration", 2);
    if (c.calibration->device.name != r.device.name)  // another GPU's constants judge nothing here
      throw CommandFailed(fmt::format("--calibration {}: a calibration of {}, the sweep was measured on {}",
                                      a.calibration, c.calibration->device.name, r.device.name), 2);
    if (!model::has_time_model_inputs(*c.calibration))
      throw CommandFailed("--calibration " + a.calibration + ": " +
                              (c.kind == "calibration" ? "the calibration" : describe_results_kind(c) + " whose calibration") +
                              " has no time model inputs (kernel resources, cluster slots, copies): expected a "
                              "calibration written by credit calibrate --json or fit-model --json", 2);
    cal = c.calibration;  // the given calibration's device inputs too (same GPU model, maybe newer probes)
  }
  if (!cal || cal->kernels.empty() || cal->copies.size() < 2) {
    if (!a.constants.empty() || !sets.empty() || !a.model_vs_measured.empty())
      throw CommandFailed(std::string(!a.model_vs_measured.empty() ? "--model-vs-measured"
                                      : a.constants.empty()        ? "--set"
                                                                   : "--constants") +
                              ": the sweep has no time-model inputs to use it with: give --calibration", 2);
    return {};
  }
  apply_constants_option(a.constants, *cal);
  apply_set_options(sets, *cal);
  return {cal};
}

// Selection regret of every model variant on the file's shapes: paper and refined from its predictions, the time model
// from the calibration (its fitted constants when it has them, else the H200 fit).
Text format_selection(const ResultsFile& r, const SelectionInputs& in, const std::string& source,
                      const std::string& model_vs_measured) {
  if (!in.cal) return "\n(no time-model inputs in this file's calibration: selection regret of the time model not shown)\n";
  const TimeModelParams params = model::params_of(*in.cal);
  const SelectionReport rep = judge_selection(measured_shapes(r), picks_for(r, *in.cal, params));
  Text out = fmt::format("\nselection: regret = T(pick) / T(fastest measured candidate) - 1; accuracy: does the pick say "
                         "'cluster' exactly where a cluster beats the faster one-CTA kernel; time model constants: {}\n",
                         params.fitted_on);
  out += format_selection_stats(rep);
  if (!model_vs_measured.empty())
    out += format_model_vs_measured(model_vs_measured,
                                    schedule_residuals(r, source, *in.cal, params, model_vs_measured));
  return out;
}

// Prints a summary built whole, without its leading blank line.
void print_text(std::FILE* to, const Text& text) {
  fmt::print(to, "{}", std::string_view(text).substr(text.starts_with('\n') ? 1 : 0));
}

// --dry-run: what the sweep would measure and a rough time (estimate_sweep), without a GPU.
void print_dry_run(const SweepConfig& cfg, const std::vector<const WorkloadInfo*>& workloads) {
  if (cfg.metric == Metric::HostCompletion) {
    const std::size_t per_shape = 2 * (3 * cfg.splits.size() + cfg.cluster_sizes.size() + 2);
    fmt::print("ladder '{}' (host completion): {} rungs and floors per shape, {} samples each\n", cfg.name,
               per_shape, cfg.samples);
    TextTable table({{"workload", kLeft}, {"M"}, {"N"}});
    for (const WorkloadInfo* w : workloads)
      for (long long n : cfg.widths) {
        std::vector<long long> ms = cfg.row_counts;
        if (ms.empty()) ms.push_back(rows_for(cfg, w->name, w->default_rows));
        for (long long m : ms) table.row({w->name, str(m), str(n)});
      }
    fmt::print("{}", table.str());
    return;
  }
  const SweepEstimate e = estimate_sweep(cfg, sweep_shapes(cfg, workloads, spdlog_log()));
  fmt::print("sweep '{}' (kernel time): at most {} points per shape ({} kernels, {} controls, 1 copy), {} pass(es), "
             "{} warm-up + {} samples each\n",
             cfg.name, e.per_shape, e.kernels, cfg.cluster_sizes.size(), cfg.passes, cfg.warmup, cfg.samples);
  TextTable table({{"workload", kLeft}, {"M"}, {"N"}, {"points"}, {"MB"}, {"est. s"}});
  for (const ShapeEstimate& sh : e.shapes)
    table.row({sh.shape.w->name, str(sh.shape.m), str(sh.shape.n), str(e.per_shape), fmt::format("{:.1f}", sh.bytes / 1e6),
               fmt::format("{:.1f}", sh.seconds)});
  fmt::print("{}", table.str());
  fmt::print("total: {} points, about {:.0f} s ({:.1f} min) on an H200-class GPU (estimate: per point 20 ms set-up "
             "+ (warmup + samples + 1) x (bytes / 3 TB/s + 5 us))\n",
             e.total_points, e.total_s, e.total_s / 60);
  if (cfg.traffic)
    fmt::print("traffic: then every passed kernel point is profiled once more under Nsight Compute (ncu) for its "
               "DRAM bytes (not in the estimate: a replay takes tens of milliseconds or more)\n");
}

// --summarize: every input read and checked (the sweep, --calibration, --constants, --baselines, --model-vs-measured's
// schedule in the sweep), every figure computed, and only then the CSV written and the summary printed.
void summarize(const SweepArgs& a, const std::vector<model::HeldConstant>& sets, const CsvOutput& csv) {
  ResultsFile r = read_results(a.summarize);
  if (r.kind != "sweep" && r.kind != "ladder")  // a calibration or prediction has no sweep to summarize
    throw CommandFailed(a.summarize + ": kind: a " + r.kind + " file has no sweep to summarize (--summarize takes "
                        "a sweep or ladder file" + (r.kind == "prediction" ? "; re-evaluate it with credit predict "
                        "--from" : "; predict from it with credit predict --calibration") + ")", 2);
  if (results_kind(r) == "baselines")  // the peers' points alone: nothing of credit's to summarize
    throw CommandFailed(a.summarize + ": is " + describe_results_kind(r) + ", expected a sweep or ladder results file "
                        "(a torch-baselines file goes with --baselines beside its sweep)", 2);
  if (r.kind == "ladder") {  // host completion times of seed 001's rungs: no time model, no predictions, no peers
    for (const auto& [option, given] :
         {std::pair{"--calibration", !a.calibration.empty()}, std::pair{"--constants", !a.constants.empty()},
          std::pair{"--set", !a.set.empty()}, std::pair{"--baselines", !a.baselines.empty()},
          std::pair{"--model-vs-measured", !a.model_vs_measured.empty()}, std::pair{"--reevaluate", a.reevaluate}})
      refuse_option(given, std::string(option) + ": " + a.summarize + " is a ladder file: its summary (host completion "
                                                 "per rung) has no time model, predictions or peers to use it with");
    const Text text = format_ladder_summary(r);
    csv.write(points_csv(r.points));
    return print_text(csv.table_stream(), text);
  }
  if (!a.model_vs_measured.empty() &&
      std::none_of(r.points.begin(), r.points.end(), [&](const SweepPoint& p) {
        return p.schedule == a.model_vs_measured && p.disposition == Disposition::Passed;
      }))
    throw CommandFailed("--model-vs-measured: " + a.summarize + " has no passed " + a.model_vs_measured + " point", 2);
  const SelectionInputs sel = selection_inputs(r, a, sets);
  std::vector<ResultsFile> others;
  for (const auto& b : a.baselines) {
    others.push_back(read_results(b));
    if (peer_points_at_shapes(r, others.back()) == 0)  // it would change nothing in the summary
      throw CommandFailed("--baselines " + b + ": no passed peer point (torch_compile, triton, torch_eager) at any "
                          "shape of " + a.summarize + " (" + describe_results_kind(others.back()) + "; expected the peers' "
                          "file of the same sweep, scripts/torch_baselines.py)", 2);
  }
  if (a.reevaluate) r.predictions = reevaluate(r, {model::Variant::Paper, model::Variant::Refined});
  const Text text = format_summary(r) + traffic::traffic_table(r.points) +
                    format_selection(r, sel, std::filesystem::path(a.summarize).filename().string(),
                                     a.model_vs_measured) +
                    format_speedups(r, others);
  csv.write(points_csv(r.points));
  print_text(csv.table_stream(), text);
}

void run_sweep(const SweepArgs& a, const GlobalOptions& g) {
  const CsvOutput csv(a.csv);
  if (!a.summarize.empty()) {  // offline, no GPU
    const auto sets = parse_set_options(a.set);  // a bad --set fails before any file is read
    if (!g.json_path.empty())
      throw CommandFailed("--json: --summarize prints a summary, it writes no JSON (--csv PATH writes its points)", 2);
    for (const auto& [option, given] : {std::pair{"--config", !a.config.empty()}, std::pair{"--resume", !a.resume.empty()},
                                        std::pair{"--dtype", !a.dtype.empty()}, std::pair{"--seed", a.seed_given},
                                        std::pair{"--dry-run", a.dry_run}, std::pair{"--no-python", a.no_python}})
      if (given) throw CommandFailed(std::string(option) + " goes with a sweep to run, not with --summarize", 2);
    refuse_device(g, "--summarize reads a recorded sweep, offline");
    if (!a.model_vs_measured.empty()) {  // before any file is read
      if (!find_schedule(a.model_vs_measured))
        throw CommandFailed("--model-vs-measured: unknown schedule '" + a.model_vs_measured + "' (known: " +
                                known_schedules() + ")", 2);
      if (!model::is_modelled_schedule(a.model_vs_measured))
        throw CommandFailed("--model-vs-measured: the time model has no term for " + a.model_vs_measured, 2);
    }
    std::vector<std::string> inputs{a.summarize, a.calibration, a.constants};
    inputs.insert(inputs.end(), a.baselines.begin(), a.baselines.end());
    prepare_outputs(inputs, {{"--csv", a.csv}});  // cli/output_paths.hpp, before any file is read
    return summarize(a, sets, csv);
  }
  for (const auto& [option, value] : {std::pair{"--calibration", &a.calibration}, std::pair{"--constants", &a.constants}})
    if (!value->empty()) throw CommandFailed(std::string(option) + " goes with --summarize (a sweep calibrates itself)", 2);
  if (!a.set.empty()) throw CommandFailed("--set goes with --summarize (a sweep calibrates itself)", 2);
  if (!a.baselines.empty()) throw CommandFailed("--baselines goes with --summarize (a sweep runs its own)", 2);
  if (!a.model_vs_measured.empty()) throw CommandFailed("--model-vs-measured goes with --summarize", 2);
  if (a.reevaluate) throw CommandFailed("--reevaluate goes with --summarize (a sweep predicts with the current model)", 2);
  if (a.dry_run) {  // a dry run reads its config and measures nothing: no GPU, no seed, no peers
    refuse_device(g, "--dry-run lists what the sweep would measure, offline");
    refuse_option(a.seed_given, "--seed: --dry-run measures nothing, it draws no inputs");
    refuse_option(a.no_python, "--no-python: --dry-run runs no peers to leave out");
  }
  if (a.dry_run)  // a dry run reads its config and writes nothing
    for (const auto& [option, value] : {std::pair{"--json", &g.json_path}, std::pair{"--csv", &a.csv},
                                        std::pair{"--resume", &a.resume}})
      if (!value->empty()) throw CommandFailed(std::string(option) + ": --dry-run measures nothing to write or resume", 2);
  // The results go to --json, else to the --resume file they continue (else to a file the config names, below),
  // checked with --csv by cli/output_paths.hpp. --json may name the --resume file: the sweep then goes on in
  // place, as it does without --json; else the --resume file is read only.
  const std::string results_file = "a sweep's results file is rewritten as points complete and read back by --resume";
  const bool in_place = g.json_path.empty() || (!a.resume.empty() && same_file(g.json_path, a.resume));
  prepare_outputs(in_place ? std::vector<std::string>{a.config} : std::vector<std::string>{a.config, a.resume},
                  {{g.json_path.empty() ? "--resume" : "--json", g.json_path.empty() ? a.resume : g.json_path, results_file},
                   {"--csv", a.csv}});
  SweepConfig cfg = a.config.empty() ? paper_sweep() : read_sweep_config(a.config);
  // (In bf16 and f16 the ladder runs the rungs built in the type and records the others as not supported.)
  if (!a.dtype.empty()) cfg.element = element_type_option(a.dtype);
  // The negative controls are turned away before anything runs (dry run, ladder or sweep).
  refuse_by_structure(cfg.workloads, a.config + ": workloads");
  for (const auto& [name, m] : cfg.rows) refuse_by_structure(find_workload(name), a.config + ": rows." + name);
  if (a.dry_run) return print_dry_run(cfg, sweep_workloads(cfg));
  const bool ladder = cfg.metric == Metric::HostCompletion;
  const std::string path = !g.json_path.empty() ? g.json_path : !a.resume.empty() ? a.resume
                           : std::string(ladder ? "credit-ladder-" : "credit-sweep-") + cfg.name + ".json";
  if (g.json_path.empty() && a.resume.empty())  // the config's default file, in the working directory
    check_outputs({a.config}, {{"the results file", path, results_file}, {"--csv", a.csv}});
  if (ladder) {  // seed 001's ladder times credit's rungs alone
    refuse_option(a.no_python, "--no-python: " + a.config + " is a ladder (host completion): it runs no torch / Triton peers");
    return run_ladder_sweep(cfg, a.resume, path, a.seed, g, csv);
  }
  const std::vector<const WorkloadInfo*> workloads = sweep_workloads(cfg);
  ResultsFile out = sweep_to_resume(a.resume);
  std::optional<traffic::ProfilerSetup> profiler;
  if (cfg.traffic) profiler = traffic_setup(g, a.seed);  // no ncu: exit 3 before the GPU is touched
  const DeviceInfo dev = gpu::use_device(g.device);
  check_resume_device(out, a.resume, dev);
  const std::vector<SweepShape> shapes = sweep_shapes(cfg, workloads, spdlog_log());
  check_shapes_fit(shapes, dev);
  if (profiler) check_profiler(*profiler);  // no permission: exit 3 before the timing
  run_sweep_passes(cfg, shapes, dev, a.seed, meta_of(g), g.argv, out, path, spdlog_log());
  if (profiler) {
    measure_traffic(out.points, *profiler, csv.table_stream());
    write_results(path, out);
  }
  const Text summary = format_summary(out);
  std::vector<ResultsFile> others;
  if (!a.no_python) {
    if (auto torch = run_python_baselines(std::string(CREDIT_SOURCE_DIR) + "/scripts/torch_baselines.py", cfg,
                                          workloads, path, spdlog_log())) others.push_back(read_results(*torch));
  }
  print_text(csv.table_stream(), summary + format_speedups(out, others));
  csv.write(points_csv(out.points));
  if (const std::size_t bad = failed_points(out))
    throw CommandFailed(fmt::format("{} point(s) were incorrect or failed (see {})", bad, path), 1);
}

}  // namespace

void add_run_sweep_command(CLI::App& app, GlobalOptions& g) {
  static SweepArgs a;
  auto* cmd = app.add_subcommand("run-sweep", "the paper's sweep: baselines, clustered kernels, controls and "
                                              "predictions at every shape (needs a GPU)");
  cmd->add_option("--config", a.config, "sweep config (configs/*.json); default: the paper's sweep");
  cmd->add_option("--resume", a.resume, "continue this sweep file, skipping points it already has");
  cmd->add_option("--dtype", a.dtype, "the workloads' element type, f32, bf16 or f16 (default: the config's \"dtype\", "
                                      "else f32)");
  cmd->add_option("--summarize", a.summarize, "print the summary of a recorded sweep file (no GPU)");
  cmd->add_flag("--reevaluate", a.reevaluate, "with --summarize: predict again with the current model first");
  cmd->add_option("--calibration", a.calibration, "with --summarize: the time model's constants (credit fit-model "
                                                  "--json) for its selection regret");
  cmd->add_option("--constants", a.constants, "with --summarize: the time model's constants from this file (credit "
                                              "fit-model --json), with --calibration's (or the sweep's) device inputs");
  add_set_option(cmd, a.set, "with --summarize: ");
  cmd->add_option("--baselines", a.baselines, "with --summarize: torch/Triton baseline files for the speed-ups");
  cmd->add_option("--model-vs-measured", a.model_vs_measured,
                  "with --summarize and a calibration: one schedule's measured / predicted kernel time per shape and "
                  "overall (any schedule the time model has a term for, a candidate or not, e.g. split_global)");
  cmd->add_flag("--no-python", a.no_python, "do not run the torch.compile/Triton baselines (scripts/)");
  cmd->add_option("--seed", a.seed, "input seed")->check(kNonNegativeInteger)->capture_default_str();
  cmd->add_flag("--dry-run", a.dry_run, "list the shapes and points the sweep would measure and a rough time "
                                        "(no GPU)");
  add_csv_option(cmd, a.csv);
  cmd->callback([cmd, &g] {
    a.seed_given = cmd->get_option("--seed")->count() > 0;
    run_sweep(a, g);
  });
}

}  // namespace credit::cli
