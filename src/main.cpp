// credit: should a row-wise operator split its rows across a thread-block cluster?
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "gpu/device_query.hpp"
#include "io/json_records.hpp"
#include "traffic/ncu_csv.hpp"

namespace {

// Levenshtein distance, for "did you mean" on a mistyped subcommand.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// CLI11 reports a word that is no subcommand as "A subcommand is required" (2.1 checks the
// requirement before the extras) or as an unexpected argument; say what the word is instead.
// Empty when that is not the case.
std::string unknown_subcommand_message(const CLI::App& app, const CLI::ParseError& e) {
  const bool required = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr;
  const bool unexpected = dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr;
  if (!(required || unexpected) || !app.get_subcommands().empty()) return "";
  const std::vector<std::string> extra = app.remaining();
  if (extra.empty() || extra.front().starts_with("-")) return "";
  std::string known, closest;
  std::size_t best = 3;  // suggest only close matches
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden (profile-launches)
    known += (known.empty() ? "" : ", ") + sub->get_name();
    const std::size_t d = edit_distance(extra.front(), sub->get_name());
    if (d < best) best = d, closest = sub->get_name();
  }
  return "unknown subcommand '" + extra.front() + "' (known: " + known + ")" +
         (closest.empty() ? "" : "; did you mean '" + closest + "'?");
}

}  // namespace

int main(int argc, char** argv) {
  // Logs and errors go to stderr: stdout carries data only (tables, Markdown), so that
  // `credit report X > out.md` holds the report and nothing else.
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("", std::make_shared<spdlog::sinks::stderr_color_sink_mt>()));
  using namespace credit::cli;
  CLI::App app{"credit: clustered reduction-reuse over DSMEM on Hopper GPUs -- measure, predict, compare"};
  app.set_version_flag("--version", std::string("credit ") + CREDIT_VERSION + " (" + CREDIT_GIT_SHA + ")");
  GlobalOptions g;
  g.argv.assign(argv, argv + argc);
  // The global options, accepted before or after the subcommand (each subcommand gets them below too).
  auto add_globals = [&g](CLI::App* to, const std::string& note) {
    to->add_option("--device", g.device, "CUDA device ordinal" + note)->check(kNonNegativeInteger)->capture_default_str();
    to->add_option("--log-level", g.log_level, "trace, debug, info, warn, error, off" + note)
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    to->add_option("--json", g.json_path, "write the results as JSON to this path" + note);
  };
  add_globals(&app, "");
  app.require_subcommand(1);
  app.parse_complete_callback([&] {
    spdlog::set_level(spdlog::level::from_str(g.log_level));
    check_output_path("--json", g.json_path, false);  // before any command measures what it could not write
  });

  add_list_command(app, g);
  add_devices_command(app, g);
  add_bench_command(app, g);
  add_predict_command(app, g);
  add_tune_command(app, g);
  add_run_sweep_command(app, g);
  add_calibrate_command(app, g);
  add_report_command(app, g);
  add_fit_model_command(app, g);
  add_compare_command(app, g);
  add_profile_launches_command(app, g);
  // Every subcommand takes the global options after its name too; those that write no JSON (list, compare, report,
  // devices) refuse --json in their own callbacks, naming the option.
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    add_globals(sub, " (same as before the subcommand)");
  app.footer(kExitCodesHelp);
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) sub->footer(kExitCodesHelp);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const std::string unknown = unknown_subcommand_message(app, e); !unknown.empty()) {
      std::cerr << unknown << "\nRun with --help for more information.\n";
      return kExitBadInput;
    }
    // CLI11 prints its message (or the help, or the version); its own codes (104-114) are all
    // bad input here.
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  } catch (const CommandFailed& e) {
    spdlog::error("{}", e.what());
    return e.exit_code;
  } catch (const credit::gpu::NoGpu& e) {
    spdlog::error("{}", e.what());
    return kExitNoGpu;
  } catch (const credit::traffic::ProfilerUnavailable& e) {  // --traffic: no ncu, or no permission
    spdlog::error("{}", e.what());
    return kExitNoGpu;
  } catch (const credit::ResultsFileError& e) {  // a results file that is missing, corrupt or of the wrong kind
    spdlog::error("{}", e.what());
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {  // unknown workload or schedule, malformed shape or config
    spdlog::error("{}", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitFailed;
  }
  // Data that never reached stdout (a full disk, a closed pipe) is a failure, not a success.
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    spdlog::error("writing the results to stdout failed");
    return kExitFailed;
  }
  return kExitOk;
}
