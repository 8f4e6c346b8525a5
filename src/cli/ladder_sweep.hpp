#pragma once
// run-sweep with "metric": "host_completion" (configs/seed001.json): seed 001's ladder, run by
// runner/ladder_runner.hpp; here its printed summary beside the note's H100 figures and the exit status.
#include <cstdint>
#include <string>

#include "cli/commands.hpp"
#include "cli/csv_output.hpp"
#include "core/results_file.hpp"
#include "sweep/sweep_config.hpp"

namespace credit::cli {

// Runs the ladder into `path`, prints its summary and writes its points to --csv (when given).
void run_ladder_sweep(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                      std::uint64_t seed, const GlobalOptions& g, const CsvOutput& csv);
// The ladder's summary per shape beside the note's H100 figures, built whole (no leading blank line).
std::string format_ladder_summary(const ResultsFile& r);

}  // namespace credit::cli
