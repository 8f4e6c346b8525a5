#include "cli/ladder_sweep.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cli/cli_log.hpp"
#include "io/csv.hpp"
#include "runner/ladder_runner.hpp"
#include "sweep/ladder_summary.hpp"

namespace credit::cli {

namespace {

// Seed 001's H100 figures (configs/reference/seed001-h100.json), printed beside ours: found
// through $CREDIT_REFERENCE_FILE, else beside an installed binary (../share/credit/reference), else in
// the source tree this binary was built from. None found: the column stays empty, with a warning.
struct NoteFigures {
  std::string workload;
  long long m = 0, n = 0;
  std::vector<std::pair<std::string, double>> rungs_us, fig6_us;
};

std::optional<std::filesystem::path> reference_file() {
  namespace fs = std::filesystem;
  const fs::path name = fs::path("reference") / "seed001-h100.json";
  if (const char* env = std::getenv("CREDIT_REFERENCE_FILE"); env && *env) return fs::path(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "credit" / name;
    if (fs::is_regular_file(installed, ec)) return installed;
  }
  const fs::path source = fs::path(CREDIT_SOURCE_DIR) / "configs" / name;
  if (fs::is_regular_file(source, ec)) return source;
  return std::nullopt;
}

NoteFigures load_note_figures() {
  NoteFigures f;
  const auto path = reference_file();
  if (!path) {
    spdlog::warn("reference/seed001-h100.json not found: the H100 (note) column is left empty");
    return f;
  }
  std::ifstream in(*path);
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    f.workload = j.at("workload").get<std::string>();
    f.m = j.at("m").get<long long>();
    f.n = j.at("n").get<long long>();
    for (const auto& [k, v] : j.at("rungs_us").items()) f.rungs_us.emplace_back(k, v.get<double>());
    for (const auto& [k, v] : j.at("fig6_grid_barrier_extra_us").items()) f.fig6_us.emplace_back(k, v.get<double>());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path->string() + ": " + e.what());
  }
  return f;
}

bool is_note_shape(const NoteFigures& f, const LadderShapeSummary& s) {
  return s.workload == f.workload && s.m == f.m && s.n == f.n;
}

std::optional<double> note_us(const NoteFigures& f, const LadderShapeSummary& s, const char* label) {
  if (!is_note_shape(f, s)) return std::nullopt;
  for (const auto& [name, us] : f.rungs_us)
    if (name == label) return us;
  return std::nullopt;
}

std::string us(double ms) { return fmt::format("{:.1f}", ms * 1e3); }

}  // namespace

std::string format_ladder_summary(const ResultsFile& r) {
  const NoteFigures note = load_note_figures();
  std::string out;
  auto put = [&out](std::string s) { out += std::move(s); };
  for (const auto& s : summarize_ladder(r)) {
    // A blank line between shapes, none before the first.
    put(fmt::format("{}{} M={} N={}: host completion (submission until stream sync returns), median us\n",
                    out.empty() ? "" : "\n", s.workload, s.m, s.n));
    put(fmt::format("{:<30} {:>4} {:>9} {:>8} {:>7} {:>12}\n", "rung", "P", "host us", "GPU us", "passed", "H100 (note)"));
    for (const auto& rr : s.rungs) {
      if (rr.total == 0) continue;
      const auto note_fig = note_us(note, s, rr.def->label);
      put(fmt::format("{:<30} {:>4} {:>9} {:>8} {:>7} {:>12}\n", rr.def->label, rr.best ? std::to_string(rr.best->p) : "-",
                      rr.best ? us(rr.best->time_ms.median) : "-", rr.best ? us(rr.best->gpu_time_ms.median) : "-",
                      fmt::format("{}/{}", rr.passed, rr.total), note_fig ? fmt::format("{:.1f}", *note_fig) : ""));
      for (const auto& f : rr.failures) put(fmt::format("    {}\n", f));
    }
    for (const auto& [name, p] : s.floors)
      put(fmt::format("{:<30} {:>4} {:>9} {:>8}\n", "floor: " + name, "", us(p->time_ms.median),
                      us(p->gpu_time_ms.median)));
    if (s.best)
      put(fmt::format("best: {} P={} {} {}: {} us\n", s.best->schedule, s.best->p, s.best->submission, s.best->variant,
                      us(s.best->time_ms.median)));
    for (const auto& sp : s.switches) {
      put(fmt::format("Fig. 6 ({} barrier, P={}, {}): base {} us", sp.barrier, sp.p, sp.submission, us(sp.base_ms)));
      for (const auto& [name, extra] : sp.extra_ms) put(fmt::format(", +{} {:+.2f} us", name, extra * 1e3));
      put("\n");
    }
    if (!s.switches.empty() && is_note_shape(note, s) && !note.fig6_us.empty()) {
      put("Fig. 6 (note, H100, grid barrier):");
      for (std::size_t i = 0; i < note.fig6_us.size(); ++i)
        put(fmt::format("{} +{} {:+.2f} us", i ? "," : "", note.fig6_us[i].first, note.fig6_us[i].second));
      put("\n");
    }
  }
  return out;
}

void run_ladder_sweep(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                      std::uint64_t seed, const GlobalOptions& g, const CsvOutput& csv) {
  const ResultsFile out = run_ladder(cfg, resume, path, seed, g.device, meta_of(g), spdlog_log());
  fmt::print(csv.table_stream(), "{}", format_ladder_summary(out));
  csv.write(points_csv(out.points));
  if (const std::size_t bad = failed_points(out))
    throw CommandFailed(fmt::format("{} point(s) were incorrect or failed (see {})", bad, path), 1);
}

}  // namespace credit::cli
