// credit compare: an A/B from recorded bench or sweep files (no GPU), or one schedule against the others (--versus). B's median time over A's at every point that
// passed in both, as sweep/ab_comparison.hpp computes it; for a build option, A is the default build's files and B
// the option's, timed on one machine.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "credit/schedule.hpp"
#include "io/json_records.hpp"
#include "sweep/ab_comparison.hpp"

namespace credit::cli {

namespace {

struct CompareArgs {
  std::vector<std::string> a, b;
  std::string schedule, versus;
  double margin = 0.03;
};

std::string builds_of(const std::vector<ResultsFile>& files) {
  std::vector<Meta> metas;
  for (const ResultsFile& r : files) metas.push_back(r.meta);
  return describe_builds(metas);
}

std::vector<ResultsFile> files_of(const std::vector<std::string>& files, const char* option) {
  std::vector<ResultsFile> out;
  for (const std::string& f : files) {
    const ResultsFile r = read_results(f);  // names the file and field when it is not a results file
    if (r.kind != "sweep" && r.kind != "ladder")  // a ladder's points are host completion times: comparable too
      throw CommandFailed(fmt::format("{}: {}: kind: a {} file has no timed points (bench and run-sweep files have)",
                                      option, f, r.kind),
                          kExitBadInput);
    out.push_back(r);
  }
  return out;
}

std::vector<SweepPoint> points_of(const std::vector<ResultsFile>& files) {
  std::vector<SweepPoint> out;
  for (const ResultsFile& r : files) out.insert(out.end(), r.points.begin(), r.points.end());
  return out;
}

void run_compare(const CompareArgs& a, bool margin_given) {
  if (!a.versus.empty()) {
    if (!a.b.empty() || !a.schedule.empty())
      throw CommandFailed("--versus compares one schedule with the others in the --a files: no --b, no --schedule",
                          kExitBadInput);
    if (!find_schedule(a.versus))  // before any file is read
      throw CommandFailed("--versus: unknown schedule '" + a.versus + "' (known: " + known_schedules() + ")",
                          kExitBadInput);
    fmt::print("{}", format_versus(a.versus, versus_others(points_of(files_of(a.a, "--a")), a.versus), a.margin));
    return;
  }
  if (margin_given)
    throw CommandFailed("--margin goes with --versus (an A/B counts no shapes by a margin)", kExitBadInput);
  if (a.b.empty()) throw CommandFailed("--b: the files of B are required (or --versus SCHEDULE)", kExitBadInput);
  const std::vector<ResultsFile> fa = files_of(a.a, "--a");  // A's files first, so an error names the first bad one
  const std::vector<ResultsFile> fb = files_of(a.b, "--b");
  const AbComparison c = compare_ab(points_of(fa), points_of(fb), a.schedule);
  fmt::print("builds: A {}; B {}\n{}", builds_of(fa), builds_of(fb), format_ab(c));
}

}  // namespace

void add_compare_command(CLI::App& app, GlobalOptions& /*g*/) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand("compare", "an A/B from recorded bench or run-sweep files: B's time over A's at every "
                                            "point both passed, geomean overall, per P, schedule and shape (no GPU)");
  // Not CLI::ExistingFile: read_results names the file and what is wrong with it.
  cmd->add_option("--a", args->a, "results files of A (e.g. the default build), one or more")->required();
  cmd->add_option("--b", args->b, "results files of B (e.g. a build option), one or more");
  cmd->add_option("--schedule", args->schedule, "only this schedule's points (default: every schedule)");
  cmd->add_option("--versus", args->versus, "instead of an A/B: this schedule's best P at each shape of the --a files "
                                            "against the fastest other candidate schedule there (never a control, "
                                            "copy or peer point)");
  auto* margin = cmd->add_option("--margin", args->margin,
                                 "with --versus: count the shapes where it is faster by this share or more")
                     ->check(CLI::Range(0.0, 1.0))
                     ->capture_default_str();
  // src/main.cpp refuses --json and --device for compare.
  cmd->callback([args, margin] { run_compare(*args, margin->count() > 0); });
}

}  // namespace credit::cli
