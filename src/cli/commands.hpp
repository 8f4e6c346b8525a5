#pragma once
// Each subcommand registers itself on the app; its callback runs after parsing.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace credit::cli {

struct GlobalOptions {
  int device = 0;
  std::string log_level = "info";
  std::string json_path;  // where to write the command's JSON, if set
  std::vector<std::string> argv;
};

void add_list_command(CLI::App& app, GlobalOptions& g);
void add_devices_command(CLI::App& app, GlobalOptions& g);
void add_bench_command(CLI::App& app, GlobalOptions& g);
void add_predict_command(CLI::App& app, GlobalOptions& g);
void add_run_sweep_command(CLI::App& app, GlobalOptions& g);
void add_calibrate_command(CLI::App& app, GlobalOptions& g);
void add_report_command(CLI::App& app, GlobalOptions& g);
void add_fit_model_command(CLI::App& app, GlobalOptions& g);
void add_profile_launches_command(CLI::App& app, GlobalOptions& g);

}  // namespace credit::cli

#include "core/records.hpp"
#include "core/workload_registry.hpp"
#include "gpu/timing.hpp"
#include "model/profitability.hpp"

namespace credit::cli {

// T_B, T_ctrl per P and the copy bandwidth recorded in a results file for one shape (the
// baseline's point and the "control" points); throws CommandFailed when T_B is missing.
model::ShapeTimings timings_from(const ResultsFile& f, const std::string& workload, long long m, long long n,
                                 const std::string& baseline);
// A device-to-device copy of the shape's compulsory bytes, as a results point "copy" (needs a GPU).
SweepPoint copy_point(const WorkloadInfo& w, long long m, long long n, gpu::Timer& timer);
// T_ctrl of the clustered schedule at P (the control kernels), as a results point "control".
SweepPoint control_point(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev,
                         gpu::Timer& timer);
// Every shape predicted in the file, re-evaluated with the current model for each variant.
std::vector<Prediction> reevaluate(const ResultsFile& in, const std::vector<model::Variant>& variants,
                                   const std::string& only_workload = "");

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

}  // namespace credit::cli
