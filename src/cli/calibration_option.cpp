#include "cli/calibration_option.hpp"

#include <spdlog/spdlog.h>

#include "cli/commands.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"

namespace credit::cli {

ResultsFile read_calibration_option(const std::string& path) {
  ResultsFile in = read_results(path);
  if (!in.calibration) throw CommandFailed(path + ": calibration: missing (not a calibration file)", kExitBadInput);
  if (in.meta.build_defines_recorded && in.meta.build_defines != this_build_defines())
    spdlog::warn("{} was written by a build compiled with {}, this one with {}: its kernels' resources and cluster "
                 "placement describe that build's kernels", path, build_defines_label(in.meta.build_defines),
                 build_defines_label(this_build_defines()));
  return in;
}

}  // namespace credit::cli
