#pragma once
// --constants FILE (predict, run-sweep --summarize): the time model's fitted constants from a file
// written by fit-model, with another file's device inputs (--calibration's, or the sweep's own), e.g.
// a candidate's constants judged with the calibration of the call that measured a held-out sweep.
#include <string>

#include "core/records.hpp"

namespace credit::cli {

// Replaces cal's constants with those of `path` (nothing when path is empty). Exit 2, naming
// --constants, when the file cannot be read, carries no constants, or is of another GPU model.
void apply_constants_option(const std::string& path, Calibration& cal);

}  // namespace credit::cli
