// calibration_for_device lives apart from the cache logic so that the CPU tests, which do not
// link spdlog or the GPU code, can test that logic.
#include <spdlog/spdlog.h>

#include "cli/calibration_cache.hpp"
#include "gpu/calibrate.hpp"
#include "io/meta.hpp"

namespace credit::cli {

Calibration calibration_for_device(const DeviceInfo& dev, const std::vector<std::string>& argv) {
  CachedCalibration c = find_cached_calibration(dev);
  if (c.calibration) return *c.calibration;
  spdlog::warn("{}: running credit calibrate first", c.reason);
  ResultsFile r;
  r.kind = "calibration";
  r.meta = make_meta(0, nullptr);
  r.meta.argv = argv;  // the command that needed the calibration, not an empty list
  r.device = dev;
  r.calibration = gpu::run_calibration(dev);
  spdlog::info("calibration cached at {}", store_cached_calibration(r).string());
  return *r.calibration;
}

}  // namespace credit::cli
