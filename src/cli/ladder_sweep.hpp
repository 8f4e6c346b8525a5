#pragma once
// run-sweep with "metric": "host_completion" (configs/seed001.json): seed 001's ladder, run by
// runner/ladder_runner.hpp; here its printed summary beside the note's H100 figures and the exit status.
#include <cstdint>
#include <string>

#include "cli/commands.hpp"
#include "core/records.hpp"
#include "sweep/sweep_config.hpp"

namespace credit::cli {

void run_ladder_sweep(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                      std::uint64_t seed, const GlobalOptions& g);
void print_ladder_summary(const ResultsFile& r);

}  // namespace credit::cli
