#pragma once
// --constants FILE (predict, tune, run-sweep --summarize): the time model's fitted constants from a file
// written by fit-model, with another file's device inputs (--calibration's, or the sweep's own), e.g.
// a candidate's constants judged with the calibration of the call that measured a held-out sweep.
// --set NAME=VALUE (the same commands, repeatable): one constant overridden after that, so that a
// candidate change of one constant (e.g. first_wave_serial_share=0) is judged by one command.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "model/fit.hpp"

namespace credit::cli {

// Replaces cal's constants with those of `path` (nothing when path is empty). Exit 2, naming
// --constants, when the file cannot be read, carries no constants, or is of another GPU model.
void apply_constants_option(const std::string& path, Calibration& cal);

// Registers --set on cmd (`scope`: what it goes with, for the help text).
void add_set_option(CLI::App* cmd, std::vector<std::string>& specs, const std::string& scope);

// Parses every --set NAME=VALUE (a constant of kTimeModelFields, a finite value >= 0, > 0 for a rate;
// a name given twice is refused): exit 2 naming --set and the spec. Parse before touching a file or GPU.
std::vector<model::HeldConstant> parse_set_options(const std::vector<std::string>& specs);

// Sets each constant on cal's (its own, else the built-in H200 ones) and says so in fitted_on.
void apply_set_options(const std::vector<model::HeldConstant>& sets, Calibration& cal);

}  // namespace credit::cli
