// credit validate: the seeded held-out check. K shapes drawn from a seed (core/shape_draw.hpp) are measured as
// run-sweep measures (every candidate checked then timed, a second timing pass for the noise band) and the regret
// of the time model, of tune, of the N-only rule and of the best single one-CTA schedule is printed
// (sweep/validation.hpp). --summarize prints the table of a recorded file; with --compare A B it judges two sets
// of the time model's constants on it by the paired bootstrap (the rule for adopting a model change).
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <optional>

#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/list_options.hpp"
#include "cli/output_paths.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "io/atomic_write.hpp"
#include "io/json_records.hpp"
#include "io/text_table.hpp"
#include "model/time_model.hpp"
#include "runner/sweep_runner.hpp"
#include "gpu/launch/device_fit.hpp"
#include "sweep/validation.hpp"

namespace credit::cli {

namespace {

using io::TextTable;
constexpr TextTable::Align kLeft = TextTable::Align::left;

struct ValidateArgs {
  std::uint64_t seed = 0;
  int shapes = 250;
  std::vector<std::string> workloads;
  std::string dtype = "f32", m_range = "1:16384", n_range = "1024:1048576";
  double max_bytes = 8e9;
  int samples = 10, warmup = 2;
  std::string resume, summarize, calibration;
  std::vector<std::string> compare;
  bool dry_run = false;
};

// "MIN:MAX" of whole numbers >= 1, MIN <= MAX; exit 2 naming the option.
std::pair<long long, long long> range_option(const std::string& option, const std::string& text) {
  const auto colon = text.find(':');
  long long lo = 0, hi = 0;
  auto whole = [](std::string_view s, long long& v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  if (colon == std::string::npos || !whole(std::string_view(text).substr(0, colon), lo) ||
      !whole(std::string_view(text).substr(colon + 1), hi) || lo < 1 || lo > hi)
    throw CommandFailed(option + ": expected MIN:MAX with 1 <= MIN <= MAX, got '" + text + "'", kExitBadInput);
  return {lo, hi};
}

// The calibration the model is judged with: --calibration's (same GPU model), else the file's own.
Calibration judging_calibration(const ResultsFile& r, const std::string& path, const std::string& file) {
  if (path.empty()) {
    if (!r.calibration || !model::has_time_model_inputs(*r.calibration))
      throw CommandFailed(file + ": records no calibration with the time model's inputs: give --calibration FILE", 2);
    return *r.calibration;
  }
  const ResultsFile c = read_results(path, {"calibration"});
  if (!c.calibration || !model::has_time_model_inputs(*c.calibration))
    throw CommandFailed(path + ": has no time model inputs (written by credit calibrate --json or fit-model --json)", 2);
  if (c.calibration->device.name != r.device.name)
    throw CommandFailed(fmt::format("{}: a calibration of {}, {} was measured on {}", path, c.calibration->device.name,
                                    file, r.device.name), 2);
  return *c.calibration;
}

void summarize(const ValidateArgs& a) {
  const ResultsFile r = read_results(a.summarize, {"sweep"});
  if (!a.compare.empty()) {
    if (a.compare.size() != 2) throw CommandFailed("--compare: expected two calibration files, A and B", 2);
    const Calibration ca = judging_calibration(r, a.compare[0], a.summarize);
    const Calibration cb = judging_calibration(r, a.compare[1], a.summarize);
    try {
      fmt::print("{}", format_comparison(compare_models(r, ca, cb), "A " + a.compare[0], "B " + a.compare[1]));
    } catch (const std::exception& e) {  // no shape to judge, or a calibration that cannot predict the file's workloads
      throw CommandFailed(a.summarize + ": " + e.what(), 2);
    }
    return;
  }
  const Calibration cal = judging_calibration(r, a.calibration, a.summarize);
  try {
    const ValidationReport rep = validation_report(r, cal, model::params_of(cal));
    fmt::print("{}", format_validation(r, rep, a.calibration.empty() ? "the file's calibration" : a.calibration));
  } catch (const std::exception& e) {  // as above
    throw CommandFailed(a.summarize + ": " + e.what(), 2);
  }
}

std::vector<SweepShape> typed_shapes(const std::vector<DrawnShape>& drawn, ElementType t) {
  std::vector<SweepShape> out;
  for (const DrawnShape& s : drawn) out.push_back({&in_type(find_workload(s.workload), t), s.m, s.n});
  return out;
}

void run_validate(const ValidateArgs& a, const GlobalOptions& g, CLI::App* cmd) {
  auto given = [cmd](const char* option) { return cmd->get_option(option)->count() > 0; };
  if (!a.summarize.empty()) {
    for (const char* option : {"--seed", "--shapes", "--workloads", "--dtype", "--m-range", "--n-range", "--max-bytes",
                               "--samples", "--warmup", "--resume", "--dry-run"})
      refuse_option(given(option), std::string(option) + " goes with a check to run, not with --summarize");
    refuse_option(!g.json_path.empty(), "--json: --summarize prints the table of a recorded file, it writes none");
    refuse_device(g, "--summarize reads a recorded file, offline");
    std::vector<std::string> inputs{a.summarize, a.calibration};
    inputs.insert(inputs.end(), a.compare.begin(), a.compare.end());
    prepare_outputs(inputs, {});
    refuse_option(!a.compare.empty() && !a.calibration.empty(),
                  "--calibration: --compare judges the model with each of its two files");
    return summarize(a);
  }
  refuse_option(!a.calibration.empty(), "--calibration goes with --summarize (a check calibrates itself)");
  refuse_option(!a.compare.empty(), "--compare goes with --summarize FILE (a recorded check)");
  if (!given("--seed"))
    throw CommandFailed("validate needs --seed: a seed serves one judgement, so none is chosen for you", 2);
  ShapeDraw d;
  d.seed = a.seed;
  d.count = a.shapes;
  std::tie(d.m_min, d.m_max) = range_option("--m-range", a.m_range);
  std::tie(d.n_min, d.n_max) = range_option("--n-range", a.n_range);
  if (d.n_max > kMaxWidth) throw CommandFailed(fmt::format("--n-range: at most {} elements a row", kMaxWidth), 2);
  if (d.m_max > kMaxRows) throw CommandFailed(fmt::format("--m-range: at most {} rows", kMaxRows), 2);
  try {
    d.element = element_type_option(a.dtype);
  } catch (const std::invalid_argument& e) {
    throw CommandFailed(e.what(), 2);
  }
  if (a.shapes < 1 || a.shapes > 100000) throw CommandFailed(fmt::format("--shapes: expected 1 to 100000, got {}", a.shapes), 2);
  if (!(a.max_bytes >= 0 && a.max_bytes <= kMaxConfigBytes))
    throw CommandFailed(fmt::format("--max-bytes: expected 0 (no limit) to {:g}", kMaxConfigBytes), 2);
  d.max_bytes = a.max_bytes;
  check_timing_counts(a.samples, a.warmup);
  for (const std::string& name : a.workloads) {
    const WorkloadInfo* w = declared_workload(name);
    if (!w || w->element() != ElementType::F32)
      throw CommandFailed("--workloads: '" + name + "' is no declared workload (credit list names them; give the "
                          "type with --dtype)", 2);
    d.workloads.push_back(name);
  }
  if (d.workloads.empty())
    for (const WorkloadInfo& w : all_workloads()) d.workloads.push_back(w.name);
  std::vector<DrawnShape> drawn;
  try {
    drawn = draw_shapes(d, [&](const std::string& w, long long m, long long n) {
      return problem_bytes(in_type(find_workload(w), d.element), m, n);
    });
  } catch (const std::invalid_argument& e) {
    throw CommandFailed(std::string("the draw: ") + e.what(), 2);
  }
  SweepConfig cfg;
  cfg.name = "validate";
  cfg.samples = a.samples;
  cfg.warmup = a.warmup;
  cfg.passes = 2;
  cfg.max_bytes = d.max_bytes;
  cfg.element = d.element;
  const std::vector<SweepShape> shapes = typed_shapes(drawn, d.element);
  if (a.dry_run) {
    refuse_device(g, "--dry-run lists what the check would measure, offline");
    for (const auto& [option, value] : {std::pair{"--json", &g.json_path}, std::pair{"--resume", &a.resume}})
      refuse_option(!value->empty(), std::string(option) + ": --dry-run measures nothing to write or resume");
    const SweepEstimate e = estimate_sweep(cfg, shapes);
    TextTable table({{"workload", kLeft}, {"M"}, {"N"}, {"MB"}, {"est. s"}});
    for (const ShapeEstimate& sh : e.shapes)
      table.row({sh.shape.w->name, std::to_string(sh.shape.m), std::to_string(sh.shape.n),
                 fmt::format("{:.1f}", sh.bytes / 1e6), fmt::format("{:.1f}", sh.seconds)});
    fmt::print("{}total: {} shapes, at most {} points, about {:.0f} s ({:.1f} min) (run-sweep --dry-run's estimate)\n",
               table.str(), shapes.size(), e.total_points, e.total_s, e.total_s / 60);
    return;
  }
  const std::string path = !g.json_path.empty() ? g.json_path : !a.resume.empty() ? a.resume
                         : fmt::format("credit-validate-{}-seed{}.json", element_type_name(d.element), d.seed);
  const std::string results_file = "a check's results file is rewritten as points complete and read back by --resume";
  const bool in_place = g.json_path.empty() || (!a.resume.empty() && same_file(g.json_path, a.resume));
  const char* option = !g.json_path.empty() ? "--json" : !a.resume.empty() ? "--resume" : "the results file";
  prepare_outputs(in_place ? std::vector<std::string>{} : std::vector<std::string>{a.resume},
                  {{option, path, results_file}});
  ResultsFile out = sweep_to_resume(a.resume);
  if (!a.resume.empty() && out.draw != d)
    throw CommandFailed("--resume: " + a.resume + (out.draw ? " was drawn with other options (seed " +
                                                                  std::to_string(out.draw->seed) + ")"
                                                            : " is no credit validate file"), 2);
  const DeviceInfo dev = gpu::use_device(g.device);
  check_resume_device(out, a.resume, dev);
  check_shapes_fit(shapes, dev);
  out.draw = d;
  spdlog::info("validate: {} shapes from seed {}, every candidate checked then timed twice; written to {}",
               shapes.size(), d.seed, path);
  run_sweep_passes(cfg, shapes, dev, d.seed, meta_of(g), g.argv, out, path, spdlog_log());
  const Calibration& cal = *out.calibration;
  fmt::print("{}", format_validation(out, validation_report(out, cal, model::params_of(cal)), "this GPU's calibration"));
  if (const std::size_t bad = failed_points(out))
    throw CommandFailed(fmt::format("{} point(s) were incorrect or failed (see {})", bad, path), 1);
}

}  // namespace

void add_validate_command(CLI::App& app, GlobalOptions& g) {
  static ValidateArgs a;
  auto* cmd = app.add_subcommand("validate", "the seeded held-out check: shapes drawn from --seed, every candidate "
                                             "measured, the regret of the model, tune, the N-only rule and the best "
                                             "one-CTA schedule (needs a GPU; --summarize FILE reads one offline)");
  cmd->add_option("--seed", a.seed, "the draw's seed (required to run; use a seed for one judgement only)")
      ->check(kNonNegativeInteger);
  cmd->add_option("--shapes", a.shapes, "shapes to draw")->capture_default_str();
  add_name_list_option(cmd, "--workloads", a.workloads, "draw from these workloads (default: every one)");
  cmd->add_option("--dtype", a.dtype, "element type: f32, bf16 or f16")->capture_default_str();
  cmd->add_option("--m-range", a.m_range, "rows M, MIN:MAX, drawn log-uniform")->capture_default_str();
  cmd->add_option("--n-range", a.n_range, "row width N, MIN:MAX, drawn log-uniform (half ragged, half multiples "
                                          "of 256)")->capture_default_str();
  cmd->add_option("--max-bytes", a.max_bytes, "draw again a shape whose operands exceed this (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--samples", a.samples, "timed samples per candidate and pass")->capture_default_str();
  cmd->add_option("--warmup", a.warmup, "untimed runs first")->capture_default_str();
  cmd->add_option("--resume", a.resume, "continue this validate file (same draw), skipping points it has");
  cmd->add_flag("--dry-run", a.dry_run, "list the drawn shapes and a rough time (no GPU)");
  cmd->add_option("--summarize", a.summarize, "print the table of a recorded validate (or sweep) file (no GPU)");
  cmd->add_option("--calibration", a.calibration, "with --summarize: judge the time model with this calibration");
  cmd->add_option("--compare", a.compare, "with --summarize: two calibration files A B; B's model against A's by "
                                          "the paired bootstrap of log regret")
      ->expected(2);
  cmd->callback([cmd, &g] { run_validate(a, g, cmd); });
}

}  // namespace credit::cli
