// credit: should a row-wise operator split its rows across a thread-block cluster?
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "gpu/device/device_query.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
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

// Which global options each command takes: --log-level every one; --device those that may run on a GPU; --json those
// that write a results file. Why a command refuses one (exit 2, naming it), or nullptr where it takes it. A command
// registers only the global options it takes, so its --help lists only those; one it refuses is named with the
// reason, given before the command's name or after it.
struct GlobalUse {
  const char* command;
  const char* no_device;
  const char* no_json;
};
constexpr GlobalUse kGlobalUse[] = {
    {"list", "list uses no GPU (the workloads' figures are static)", "list writes no JSON (its table is on stdout)"},
    {"devices", "devices lists every device this process sees", "devices writes no JSON (its table is on stdout)"},
    {"bench", nullptr, nullptr},
    {"predict", nullptr, nullptr},
    {"tune", nullptr, nullptr},
    {"run-sweep", nullptr, nullptr},
    {"calibrate", nullptr, nullptr},
    {"report", "report uses no GPU (it reads results files)",
     "report writes Markdown and HTML, not JSON (--markdown PATH, --html PATH)"},
    {"fit-model", "fit-model uses no GPU (it fits recorded sweeps)", nullptr},
    {"compare", "compare uses no GPU (it reads results files)", "compare writes no JSON (its summary is on stdout)"},
    {"profile-launches", nullptr, "profile-launches writes its --manifest, no JSON"},
    {"cache", nullptr, "cache writes no JSON (export FILE writes the tuning cache's own file)"},
    {"validate", nullptr, nullptr},
};
const GlobalUse& global_use(const std::string& command) {
  for (const GlobalUse& u : kGlobalUse)
    if (command == u.command) return u;
  throw std::logic_error("kGlobalUse does not list the command " + command);
}

// A word that is an option's name ("--shape", "--json=x"), not a value: "-" (stdout) and negative numbers are values.
bool is_option_word(const std::string& v) {
  return v.size() > 2 && v[0] == '-' && v[1] == '-' && std::isalpha(static_cast<unsigned char>(v[2]));
}

// CLI11 (2.1 and 2.4 alike) takes the word after an option as its value even when that word is another option:
// "--workload --shape 4096x4096" sets the workload to "--shape" and then finds 4096x4096 unexpected. Every option
// that takes a value refuses an option's name as one, naming itself (before any other check of the value).
void refuse_options_as_values(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional() || opt->get_items_expected_min() < 1) continue;  // positionals, flags
    opt->transform(CLI::Validator(
        [name = opt->get_lnames().empty() ? opt->get_name() : "--" + opt->get_lnames().front()](std::string& v) -> std::string {
          if (is_option_word(v))
            throw CLI::ArgumentMismatch(name + " needs a value (the next word, " + v + ", is an option)");
          return "";
        },
        ""));
  }
}

// A global option after the name of a command that refuses it (so did not register it): CLI11 finds it unexpected;
// say why the command refuses it instead. Empty when that is not the case.
std::string refused_global_message(const CLI::App& app, const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr || app.get_subcommands().empty()) return "";
  const CLI::App* sub = app.get_subcommands().front();
  const GlobalUse& use = global_use(sub->get_name());
  for (const std::string& word : sub->remaining())
    for (const auto& [option, why] : {std::pair{"--device", use.no_device}, std::pair{"--json", use.no_json}})
      if (why && (word == option || word.starts_with(std::string(option) + "=")))
        return std::string(option) + ": " + why;
  return "";
}

// CLI11's message for an option at the end of the line ("--workload: 1 required TEXT missing") in the words of the
// one above; empty for any other message.
std::string missing_value_message(const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) == nullptr) return "";
  const std::string what = e.what();
  const std::size_t colon = what.find(": ");
  if (colon == std::string::npos || !is_option_word(what.substr(0, colon)) || !what.ends_with(" missing") ||
      what.find(" required ", colon) == std::string::npos)
    return "";
  return what.substr(0, colon) + " needs a value";
}

}  // namespace

int main(int argc, char** argv) {
  // Logs and errors go to stderr: stdout carries data only (tables, Markdown), so that
  // `credit report X > out.md` holds the report and nothing else.
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("", std::make_shared<spdlog::sinks::stderr_color_sink_mt>()));
  using namespace credit::cli;
  CLI::App app{"credit: clustered reduction-reuse over DSMEM on Hopper GPUs -- measure, predict, compare"};
  app.set_version_flag("--version", credit::this_build_label());
  GlobalOptions g;
  g.argv.assign(argv, argv + argc);
  // The global options, accepted before or after the subcommand (each subcommand gets those it takes below too, so
  // that its --help lists only them).
  auto add_globals = [&g](CLI::App* to, const std::string& note, bool device, bool json) {
    if (device)
      to->add_option("--device", g.device, "CUDA device ordinal" + note)->check(kNonNegativeInteger)->capture_default_str();
    to->add_option("--log-level", g.log_level, "trace, debug, info, warn, error, off" + note)
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    if (json) to->add_option("--json", g.json_path, "write the results as JSON to this path" + note);
  };
  add_globals(&app, "", true, true);
  app.get_option("--device")->description("CUDA device ordinal (the commands that use a GPU)");
  app.get_option("--json")->description("write the results as JSON to this path (the commands that write results)");
  app.require_subcommand(1);
  app.parse_complete_callback([&] {
    spdlog::set_level(spdlog::level::from_str(g.log_level));
    if (app.get_subcommands().empty()) return;  // CLI11 says a subcommand is required
    const CLI::App* sub = app.get_subcommands().front();
    const GlobalUse& use = global_use(sub->get_name());
    auto given = [&](const char* option) {
      const CLI::Option* after = sub->get_option_no_throw(option);  // registered where the command takes it
      return app.get_option(option)->count() + (after ? after->count() : 0) > 0;
    };
    g.device_given = given("--device");
    if (g.device_given && use.no_device) throw CommandFailed(std::string("--device: ") + use.no_device, kExitBadInput);
    if (given("--json") && use.no_json) throw CommandFailed(std::string("--json: ") + use.no_json, kExitBadInput);
    // (A command that writes JSON checks --json's path with its inputs and other outputs before any work:
    // cli/output_paths.hpp.)
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
  add_cache_command(app, g);
  add_validate_command(app, g);
  // Every subcommand takes the global options it uses (kGlobalUse) after its name too.
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const GlobalUse& use = global_use(sub->get_name());
    add_globals(sub, " (same as before the subcommand)", use.no_device == nullptr, use.no_json == nullptr);
  }
  app.footer(kExitCodesHelp);
  refuse_options_as_values(app);
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    sub->footer(kExitCodesHelp);
    refuse_options_as_values(*sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    for (const std::string& message :
         {unknown_subcommand_message(app, e), refused_global_message(app, e), missing_value_message(e)})
      if (!message.empty()) {
        std::cerr << message << "\nRun with --help for more information.\n";
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
