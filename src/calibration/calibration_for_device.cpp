// calibration_for_device lives apart from the cache logic (credit_core) so that the CPU tests,
// which do not link the GPU code, can test that logic.
#include "calibration/calibration_for_device.hpp"
#include "calibration/calibrate.hpp"
#include "io/meta.hpp"

namespace credit {

Calibration calibration_for_device(const DeviceInfo& dev, const std::vector<std::string>& argv, const Log& log) {
  CachedCalibration c = find_cached_calibration(dev);
  if (c.calibration) return *c.calibration;
  log.warn("{}: running credit calibrate first", c.reason);
  ResultsFile r;
  r.kind = "calibration";
  r.meta = make_meta(0, nullptr);
  r.meta.argv = argv;  // the command that needed the calibration, not an empty list
  r.device = dev;
  r.calibration = gpu::run_calibration(dev);
  log.info("calibration cached at {}", store_cached_calibration(r).string());
  return *r.calibration;
}

}  // namespace credit
