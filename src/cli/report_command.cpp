// credit report: the paper's tables and figures (Table II, Fig. 3, Table IV, Table V, Fig. 4, % of
// copy, problem points) from sweep, calibration and baseline results files; no GPU needed.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "io/meta.hpp"
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

void run_report(const ReportArgs& a) {
  // Before anything is read or written (cli/output_paths.hpp): "-" is stdout for either, and the Markdown
  // printed by default then goes to stderr beside --html -.
  prepare_outputs(a.files, {{"--markdown", a.markdown}, {"--html", a.html}});
  report::ReportData data;
  try {
    data = report::load_report(std::vector<std::filesystem::path>(a.files.begin(), a.files.end()));
  } catch (const ResultsFileError& e) {
    throw CommandFailed(e.what(), kExitBadInput);  // bad input, as the other commands report it
  }
  const report::Document doc = report::build_document(data, this_build_label());
  const std::string md = report::render_markdown(doc);
  if (a.markdown.empty()) {
    fmt::print("{}", md);
  } else {
    write_output(a.markdown, md);
    if (a.markdown != "-") spdlog::info("wrote {}", a.markdown);
  }
  if (!a.html.empty()) {
    write_output(a.html, report::render_html(doc, report::report_charts(data)));
    if (a.html != "-") spdlog::info("wrote {}", a.html);
  }
}

}  // namespace

void add_report_command(CLI::App& app, GlobalOptions& /*g*/) {
  static ReportArgs a;
  auto* cmd = app.add_subcommand("report", "tables and figures of the paper from results files (sweep, calibration, "
                                           "torch/Triton baselines; several GPUs allowed; no GPU needed)");
  // Not CLI::ExistingFile: read_results names the file and what is wrong with it.
  cmd->add_option("files", a.files, "results JSON files (credit run-sweep, calibrate, scripts/torch_baselines.py)")
      ->required();
  cmd->add_option("--markdown", a.markdown, "write the Markdown here, or - for stdout (default: print it)");
  cmd->add_option("--html", a.html, "also write one self-contained HTML page with SVG charts here, or - for stdout "
                                    "(the Markdown then goes to stderr unless --markdown names a file)");
  cmd->callback([] { run_report(a); });  // src/main.cpp refuses --json and --device for report
}

}  // namespace credit::cli
