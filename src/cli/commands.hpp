#pragma once
// Each subcommand registers itself on the app; its callback runs after parsing.
#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/results_meta.hpp"
#include "sweep/sweep_config.hpp"  // kMaxConfigSamples, kMaxConfigWarmup

namespace credit::cli {

// A whole number of at least 0 (--device, --seed): CLI11's NonNegativeNumber prints its range to 1.8e308.
inline const CLI::Validator kNonNegativeInteger(
    [](std::string& v) {
      return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos
                 ? std::string()
                 : "expected a whole number of at least 0, got '" + v + "'";
    },
    "INT>=0");


struct GlobalOptions {
  int device = 0;
  bool device_given = false;  // --device on the command line (before or after the command's name)
  std::string log_level = "info";
  std::string json_path;  // where to write the command's JSON, if set
  std::vector<std::string> argv;
};

void add_list_command(CLI::App& app, GlobalOptions& g);
void add_devices_command(CLI::App& app, GlobalOptions& g);
void add_bench_command(CLI::App& app, GlobalOptions& g);
void add_predict_command(CLI::App& app, GlobalOptions& g);
void add_tune_command(CLI::App& app, GlobalOptions& g);
void add_run_sweep_command(CLI::App& app, GlobalOptions& g);
void add_calibrate_command(CLI::App& app, GlobalOptions& g);
void add_report_command(CLI::App& app, GlobalOptions& g);
void add_fit_model_command(CLI::App& app, GlobalOptions& g);
void add_profile_launches_command(CLI::App& app, GlobalOptions& g);
void add_compare_command(CLI::App& app, GlobalOptions& g);
void add_cache_command(CLI::App& app, GlobalOptions& g);
void add_validate_command(CLI::App& app, GlobalOptions& g);

// The provenance of a results file written by this invocation (argv, version, sha, time).
Meta meta_of(const GlobalOptions& g);

// The exit status of every command (README, `credit --help`).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;    // a point was incorrect or failed, or the command itself failed
inline constexpr int kExitBadInput = 2;  // options, shapes, workloads, results files, configs
inline constexpr int kExitNoGpu = 3;     // no GPU, no such device, or one without thread-block clusters; or
                                         // (--traffic) no usable profiler: ncu missing or without permission
inline constexpr const char* kExitCodesHelp =
    "Exit status: 0 ok; 1 a point was incorrect or failed (or the command failed); 2 bad input "
    "(options, shapes, workloads, results files, configs); 3 no suitable GPU (none, no such device, "
    "or one without thread-block clusters; with --traffic also: ncu not found, or no permission for the GPU's "
    "performance counters). Logs and errors go to stderr, data to stdout.";

// A command that cannot do what was asked exits with this code after printing why.
struct CommandFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
  int exit_code = kExitFailed;
  CommandFailed(const std::string& what, int code) : std::runtime_error(what), exit_code(code) {}
};

// An option the command as given cannot use is bad input, never silently ignored: exit 2 naming it (`why` starts
// with the option's name, e.g. "--margin goes with --versus").
inline void refuse_option(bool given, const std::string& why) {
  if (given) throw CommandFailed(why, kExitBadInput);
}

// --samples and --warmup (bench, tune): the limits a sweep config has, so that no count overflows what times it;
// exit 2 naming the option and its limits.
inline void check_timing_counts(int samples, int warmup) {
  if (samples < 1 || samples > kMaxConfigSamples)
    throw CommandFailed("--samples: expected 1 to " + std::to_string(kMaxConfigSamples) +
                            " (each sample is a timed launch after an L2 flush), got " + std::to_string(samples),
                        kExitBadInput);
  if (warmup < 0 || warmup > kMaxConfigWarmup)
    throw CommandFailed("--warmup: expected 0 to " + std::to_string(kMaxConfigWarmup) + ", got " +
                            std::to_string(warmup),
                        kExitBadInput);
}

// --device where the command as given runs on no GPU (e.g. predict --calibration FILE): exit 2 naming it.
inline void refuse_device(const GlobalOptions& g, const std::string& why) {
  refuse_option(g.device_given, "--device: " + why);
}

}  // namespace credit::cli
