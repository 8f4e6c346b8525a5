#include "cli/constants_option.hpp"

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "io/json_records.hpp"

namespace credit::cli {

void apply_constants_option(const std::string& path, Calibration& cal) {
  if (path.empty()) return;
  const ResultsFile f = read_results(path);  // a missing or corrupt file: ResultsFileError, exit 2, naming it
  if (!f.calibration || !f.calibration->time_model)
    throw CommandFailed("--constants " + path + ": no time model constants in it (a file written by fit-model --json)", 2);
  // Constants fitted on one GPU model say nothing about another's kernels.
  if (f.calibration->device.name != cal.device.name)
    throw CommandFailed(fmt::format("--constants {}: fitted on {}, the calibration is of {}", path,
                                    f.calibration->device.name, cal.device.name), 2);
  cal.time_model = f.calibration->time_model;
}

}  // namespace credit::cli
