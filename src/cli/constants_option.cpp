#include "cli/constants_option.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "cli/commands.hpp"
#include "io/json_records.hpp"
#include "model/time_model.hpp"

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

void add_set_option(CLI::App* cmd, std::vector<std::string>& specs, const std::string& scope) {
  cmd->add_option("--set", specs, scope + "NAME=VALUE: one time model constant set to VALUE after the calibration's "
                                  "or --constants' (e.g. first_wave_serial_share=0); repeatable")
      ->type_name("NAME=VALUE");
}

std::vector<model::HeldConstant> parse_set_options(const std::vector<std::string>& specs) {
  std::vector<model::HeldConstant> out;
  for (const auto& s : specs) {
    try {
      out.push_back(model::parse_held_constant(s));
    } catch (const std::invalid_argument& e) {
      throw CommandFailed(std::string("--set ") + e.what(), 2);
    }
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
      if (out[i].field == out.back().field)
        throw CommandFailed(fmt::format("--set '{}': {} is set twice", s, out.back().field->name), 2);
  }
  return out;
}

void apply_set_options(const std::vector<model::HeldConstant>& sets, Calibration& cal) {
  if (sets.empty()) return;
  // What the constants are set on: said here, since afterwards the calibration carries constants of its own.
  if (!cal.time_model && cal.device.name.find("H200") == std::string::npos)
    spdlog::warn("the calibration of {} carries no fitted time model: --set changes the H200's constants", cal.device.name);
  TimeModelParams p = model::params_of(cal);
  std::string what;
  for (const auto& s : sets) {
    p.*(s.field->member) = s.value;
    what += fmt::format("{}{} = {:g}", what.empty() ? "" : ", ", s.field->name, s.value);
  }
  p.fitted_on += "; with --set " + what;
  cal.time_model = p;
}

}  // namespace credit::cli
