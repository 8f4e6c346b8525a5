#pragma once
// The peers beside credit's kernels: torch eager, torch.compile and Triton at a sweep's shapes,
// measured by scripts/torch_baselines.py in a python3 child.
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"
#include "core/workload_registry.hpp"
#include "sweep/sweep_config.hpp"

namespace credit {

// Runs `script` (scripts/torch_baselines.py) at the widths of `cfg` for `ws`, writing
// "<sweep_path without .json>-torch.json", when python3 with torch, triton and CUDA is here.
// Returns the file it wrote, if any (nullopt, said on log.info, when python3 is not usable).
std::optional<std::string> run_python_baselines(const std::string& script, const SweepConfig& cfg,
                                                const std::vector<const WorkloadInfo*>& ws,
                                                const std::string& sweep_path, const Log& log = {});

}  // namespace credit
