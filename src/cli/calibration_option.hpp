#pragma once
// --calibration FILE (predict, tune): a results file that carries a calibration, read offline.
#include <string>

#include "core/records.hpp"

namespace credit::cli {

// The file at `path`, which must carry a calibration (else exit 2 naming the file). A file written by a build
// compiled with other A/B definitions than this one is used, with a warning naming both: its kernel resources and
// cluster residency describe that build's kernels (Meta::build_defines; a file from before they were recorded
// says nothing).
ResultsFile read_calibration_option(const std::string& path);

}  // namespace credit::cli
