// credit devices: the CUDA devices this process sees, what credit needs of each, and whether a
// calibration of it is cached (calibration/calibration_cache.hpp). No GPU: says so and exits 3.
#include <fmt/format.h>

#include "calibration/calibration_cache.hpp"
#include "cli/commands.hpp"
#include "gpu/device/device_query.hpp"

namespace credit::cli {

namespace {

void run_devices() {
  const int n = gpu::device_count();
  if (n == 0) throw gpu::NoGpu("no CUDA device found (no GPU, no driver, or CUDA_VISIBLE_DEVICES hides them)");
  fmt::print("{:>5}  {:<28} {:<41} {:>4} {:>12} {:>8}  {}\n", "index", "name", "uuid", "SMs", "smem/block", "clusters",
             "cached calibration");
  for (int i = 0; i < n; ++i) {
    DeviceInfo d;
    try {
      d = gpu::query_device(i);
    } catch (const gpu::NoGpu& e) {  // e.g. a pre-Hopper GPU: listed, with why credit cannot use it
      fmt::print("{:>5}  not usable: {}\n", i, e.what());
      continue;
    }
    std::string cached;
    try {
      const CachedCalibration c = find_cached_calibration(d);
      cached = c.calibration ? calibration_cache_path(d).string() : "none (" + c.reason + ")";
    } catch (const std::exception& e) {  // no cache directory ($HOME unset), no UUID
      cached = std::string("none (") + e.what() + ")";
    }
    fmt::print("{:>5}  {:<28} {:<41} {:>4} {:>9} KB {:>8}  {}\n", i, d.name, d.uuid, d.sm_count,
               d.smem_per_block_optin / 1024, d.cluster_launch ? "yes" : "no", cached);
  }
}

}  // namespace

void add_devices_command(CLI::App& app, GlobalOptions& /*g*/) {
  auto* cmd = app.add_subcommand("devices", "the CUDA devices: index, name, UUID, SMs, shared memory per block, "
                                            "cluster launch, and the cached calibration (exit 3 when none)");
  cmd->callback([] { run_devices(); });  // src/main.cpp refuses --json and --device for devices
}

}  // namespace credit::cli
