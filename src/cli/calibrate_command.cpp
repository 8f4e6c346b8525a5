// credit calibrate: the DSMEM microbenchmarks of paper Table II on this GPU, printed as the
// paper's table and written to --json and to the per-device cache that later commands read.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "calibration/calibration_cache.hpp"
#include "cli/calibration_table.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "core/workload_registry.hpp"
#include "calibration/calibrate.hpp"
#include "calibration/control.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/timing.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"

namespace credit::cli {

namespace {

struct CalibrateArgs {
  int runs = 15;
  bool no_control = false;
};

// T_ctrl is per shape, so it is not part of the calibration; a few shapes show its size.
void print_control_sample(const DeviceInfo& dev, const std::vector<int>& ps) {
  const WorkloadInfo& w = find_workload("rms_softmax");
  const long long m = w.default_rows;
  gpu::Timer timer(dev);
  fmt::print("\nwork-free control ({} M={}, K={} barriers; not stored: T_ctrl is measured per shape)\n", w.name, m,
             w.figures.K());
  fmt::print("{:>8} {:>12}", "N", "P=1 ms");
  for (int p : ps) fmt::print(" {:>12}", fmt::format("T_ctrl P={}", p));
  fmt::print("\n");
  for (long long n : {4096LL, 65536LL}) {
    fmt::print("{:>8} {:>12.4f}", n, gpu::control_time_ms(w, m, n, 1, dev, timer));
    for (int p : ps) {
      try {
        fmt::print(" {:>12.4f}", gpu::t_ctrl_ms(w, m, n, p, dev, timer));
      } catch (const std::invalid_argument&) {
        fmt::print(" {:>12}", "illegal");
      }
    }
    fmt::print("\n");
  }
}

void run_calibrate(const CalibrateArgs& a, const GlobalOptions& g) {
  if (a.runs < 1) throw CommandFailed("--runs must be at least 1", 2);
  prepare_outputs({}, {{"--json", g.json_path}});  // cli/output_paths.hpp, before the GPU
  const DeviceInfo dev = gpu::use_device(g.device);
  const auto t0 = std::chrono::steady_clock::now();
  ResultsFile out;
  out.kind = "calibration";
  out.meta = meta_of(g);
  out.device = dev;
  gpu::CalibrationOptions opt;
  opt.runs = a.runs;
  opt.progress = [](const std::string& line) { spdlog::info("calibrate: {}", line); };
  out.calibration = gpu::run_calibration(dev, opt);
  fmt::print("{}{}", format_table_ii(*out.calibration), format_kernel_probes(*out.calibration));

  if (!g.json_path.empty()) {
    write_results_output(g.json_path, out);
    if (g.json_path != "-") spdlog::info("wrote {}", g.json_path);
  }
  try {
    spdlog::info("cached for this device at {}", store_cached_calibration(out).string());
  } catch (const std::exception& e) {  // the measurement stands; only its reuse is lost
    spdlog::warn("calibration not cached: {}", e.what());
  }
  if (!a.no_control) print_control_sample(dev, opt.ps);
  spdlog::info("calibrate took {:.1f} s",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

void add_calibrate_command(CLI::App& app, GlobalOptions& g) {
  static CalibrateArgs a;
  auto* cmd = app.add_subcommand("calibrate", "DSMEM microbenchmarks (paper Table II) into the device's cache (needs a GPU)");
  cmd->add_option("--runs", a.runs, "launches per figure (median, min, max reported)")->capture_default_str();
  cmd->add_flag("--no-control", a.no_control, "skip the informational control-kernel (T_ctrl) sample");
  cmd->callback([&g] { run_calibrate(a, g); });
}

}  // namespace credit::cli
