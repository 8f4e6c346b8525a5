#pragma once
// The calibration of a device: the cached one, else a fresh run of it, cached (credit_gpu).
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "calibration/calibration_cache.hpp"
#include "core/device_info.hpp"
#include "core/log.hpp"

namespace credit {

// The cached calibration of `dev`; when there is none, says why (log.warn), runs the
// calibration, caches it (log.info: where) and returns it (for predict and run-sweep; needs the GPU).
// argv: the command line that needed it, recorded in the cached file's meta.
Calibration calibration_for_device(const DeviceInfo& dev, const std::vector<std::string>& argv, const Log& log = {});

}  // namespace credit
