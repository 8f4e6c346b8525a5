#include "calibration/calibration_cache.hpp"

#include <cstdlib>
#include <stdexcept>

#include "io/json_records.hpp"

namespace credit {

namespace fs = std::filesystem;

namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

std::string who(const DeviceInfo& d) { return d.name + " (" + (d.uuid.empty() ? "no UUID" : d.uuid) + ")"; }

}  // namespace

fs::path calibration_cache_dir() {
  if (const char* d = env("CREDIT_CACHE_DIR")) return d;
  if (const char* d = env("XDG_CACHE_HOME")) return fs::path(d) / "credit";
  if (const char* d = env("HOME")) return fs::path(d) / ".cache" / "credit";
  throw std::runtime_error("no calibration cache directory: set CREDIT_CACHE_DIR, XDG_CACHE_HOME or HOME");
}

fs::path calibration_cache_path(const DeviceInfo& dev) {
  if (dev.uuid.empty()) throw std::invalid_argument(dev.name + " reports no UUID to key its calibration cache by");
  std::string file = dev.uuid;
  for (char& ch : file) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                    ch == '_';
    if (!ok) ch = '_';
  }
  return calibration_cache_dir() / (file + ".json");
}

fs::path store_cached_calibration(const ResultsFile& results) {
  if (results.kind != "calibration" || !results.calibration)
    throw std::invalid_argument("only a calibration results file goes into the calibration cache");
  const fs::path path = calibration_cache_path(results.device);
  write_results(path, results);
  return path;
}

CachedCalibration find_cached_calibration(const DeviceInfo& dev, const std::string& build_defines) {
  fs::path path;
  try {
    path = calibration_cache_path(dev);
  } catch (const std::exception& e) {
    return {std::nullopt, std::string("no calibration cache: ") + e.what()};
  }
  std::error_code ec;
  if (!fs::exists(path, ec))
    return {std::nullopt, "no cached calibration for " + who(dev) + " at " + path.string() + ": run `credit calibrate`"};
  ResultsFile r;
  try {
    r = read_results(path);
  } catch (const ResultsFileError& e) {
    if (e.field() == "schema_version")
      return {std::nullopt, "cached calibration written with another schema_version, not used (" +
                                std::string(e.what()) + "): run `credit calibrate` again"};
    return {std::nullopt, std::string("cached calibration unreadable, not used: ") + e.what()};
  }
  if (r.kind != "calibration" || !r.calibration)
    return {std::nullopt, path.string() + " holds a " + r.kind + " file, not a calibration: not used"};
  for (const DeviceInfo* written : {&r.device, &r.calibration->device})
    if (written->uuid != dev.uuid)
      return {std::nullopt, "cached calibration " + path.string() + " was written on another device, " + who(*written) +
                                ", not on this " + who(dev) + ": not used"};
  if (r.meta.build_defines != build_defines)  // "" where not recorded: the builds before it were the defaults
    return {std::nullopt, "cached calibration " + path.string() + " was written by a build compiled with " +
                              build_defines_label(r.meta.build_defines) + ", this one with " + build_defines_label(build_defines) +
                              ": not used (run `credit calibrate` with this build)"};
  if (r.calibration->kernels.empty() || r.calibration->cluster_slots.empty() || r.calibration->copies.empty())
    return {std::nullopt, "cached calibration " + path.string() +
                              " predates the time model's inputs (kernels, cluster slots, copies): not used"};
  return {std::move(r.calibration), ""};
}

}  // namespace credit
