#pragma once
// --calibration FILE (predict, tune): a results file that carries a calibration, read offline.
#include <string>

#include "core/results_file.hpp"

namespace credit::cli {

// The file at `path`, which must carry a calibration with the time model's inputs (else exit 2 naming the file, what
// kind of file it is and what was expected: a sweep file records a calibration, often one without them). A file
// written by a build compiled with other A/B definitions than this one is used, with a warning naming both: its kernel
// resources and cluster residency describe that build's kernels (Meta::build_defines; a file from before they were
// recorded says nothing).
ResultsFile read_calibration_option(const std::string& path);

}  // namespace credit::cli
