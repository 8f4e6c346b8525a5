// load_cached_calibration lives apart from the cache logic so that the CPU tests, which do not
// link spdlog, can test that logic.
#include <spdlog/spdlog.h>

#include "cli/calibration_cache.hpp"

namespace credit::cli {

std::optional<Calibration> load_cached_calibration(const DeviceInfo& dev) {
  CachedCalibration c = find_cached_calibration(dev);
  if (!c.calibration) spdlog::warn("{}", c.reason);
  return std::move(c.calibration);
}

}  // namespace credit::cli
