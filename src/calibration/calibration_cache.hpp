#pragma once
// The per-device calibration cache: `credit calibrate` stores its results file under the GPU's
// UUID, and later commands reuse it only when it was written on this very device with this
// build's schema. Otherwise they get nothing and the reason: a cache is never used silently.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/results_file.hpp"
#include "io/meta.hpp"

namespace credit {

// $CREDIT_CACHE_DIR if set, else $XDG_CACHE_HOME/credit, else $HOME/.cache/credit.
// Throws std::runtime_error when none of the three is set.
std::filesystem::path calibration_cache_dir();

// calibration_cache_dir() / "<uuid>.json", characters outside [A-Za-z0-9_-] replaced by '_'.
// Throws std::invalid_argument when the device reports no UUID.
std::filesystem::path calibration_cache_path(const DeviceInfo& dev);

// Writes `results` (kind "calibration", with its calibration) to the cache of results.device
// with write_results (atomic); returns the path. Throws std::invalid_argument for anything but
// a calibration, std::runtime_error when writing fails.
std::filesystem::path store_cached_calibration(const ResultsFile& results);

struct CachedCalibration {
  std::optional<Calibration> calibration;
  std::string reason;  // why there is none; empty when there is one
};

// The cached calibration of `dev`, or why there is none: no cache file; a file that does not
// read (read_results' ResultsFileError, another schema_version among them); not a calibration;
// written on another device (UUID mismatch in the file or in its calibration); or by a build
// compiled with other A/B definitions than `build_defines` (its kernels' registers and the
// clusters' placement, which the calibration records, may differ; a file from before they were
// recorded counts as the defaults').
CachedCalibration find_cached_calibration(const DeviceInfo& dev, const std::string& build_defines = this_build_defines());

// calibration_for_device (calibration/calibration_for_device.hpp, credit_gpu) runs the
// calibration when there is none.

}  // namespace credit
