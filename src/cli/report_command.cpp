// credit report: the paper's tables and figures (Table II, Fig. 3, Table IV, Table V, Fig. 4, % of
// copy, problem points) from sweep, calibration and baseline results files; no GPU needed.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"
#include "io/json_records.hpp"
#include "report/html.hpp"
#include "report/markdown.hpp"
#include "report/report_charts.hpp"
#include "report/report_document.hpp"

namespace credit::cli {

namespace {

struct ReportArgs {
  std::vector<std::string> files;
  std::string markdown, html;
};

// Refuses, before anything is read or written, an output that would overwrite an input (or the
// other output) or that is a directory; exit status 2. (An input directory: read_results.)
void check_paths(const ReportArgs& a) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::pair<const char*, const std::string*> outputs[] = {{"--markdown", &a.markdown}, {"--html", &a.html}};
  for (const auto& [option, path] : outputs) {
    if (path->empty()) continue;
    if (fs::is_directory(*path, ec))
      throw CommandFailed(fmt::format("{} {}: is a directory, expected a file to write", option, *path), kExitBadInput);
    for (const auto& f : a.files)
      if (same_file(*path, f))
        throw CommandFailed(fmt::format("{} {}: is the input file {}; refusing to overwrite it", option, *path, f),
                            kExitBadInput);
  }
  if (!a.markdown.empty() && !a.html.empty() && same_file(a.markdown, a.html))
    throw CommandFailed(fmt::format("--markdown and --html name the same file {}", a.markdown), kExitBadInput);
}

void run_report(const ReportArgs& a) {
  check_paths(a);
  report::ReportData data;
  try {
    data = report::load_report(std::vector<std::filesystem::path>(a.files.begin(), a.files.end()));
  } catch (const ResultsFileError& e) {
    throw CommandFailed(e.what(), kExitBadInput);  // bad input, as the other commands report it
  }
  const report::Document doc = report::build_document(data, fmt::format("credit {} ({})", CREDIT_VERSION, CREDIT_GIT_SHA));
  const std::string md = report::render_markdown(doc);
  if (a.markdown.empty()) {
    fmt::print("{}", md);
  } else {
    write_file_atomically(a.markdown, md);
    spdlog::info("wrote {}", a.markdown);
  }
  if (!a.html.empty()) {
    write_file_atomically(a.html, report::render_html(doc, report::report_charts(data)));
    spdlog::info("wrote {}", a.html);
  }
}

}  // namespace

void add_report_command(CLI::App& app, GlobalOptions& g) {
  static ReportArgs a;
  auto* cmd = app.add_subcommand("report", "tables and figures of the paper from results files (sweep, calibration, "
                                           "torch/Triton baselines; several GPUs allowed; no GPU needed)");
  // Not CLI::ExistingFile: read_results names the file and what is wrong with it.
  cmd->add_option("files", a.files, "results JSON files (credit run-sweep, calibrate, scripts/torch_baselines.py)")
      ->required();
  cmd->add_option("--markdown", a.markdown, "write the Markdown here (default: print it)");
  cmd->add_option("--html", a.html, "also write one self-contained HTML page with SVG charts here");
  cmd->callback([&g] {
    if (!g.json_path.empty())
      throw CommandFailed("--json: report writes Markdown and HTML, not JSON (--markdown PATH, --html PATH)", kExitBadInput);
    run_report(a);
  });
}

}  // namespace credit::cli
