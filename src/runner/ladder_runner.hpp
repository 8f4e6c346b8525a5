#pragma once
// Seed 001's ladder (run-sweep with "metric": "host_completion", configs/seed001.json): every rung
// and floor at every (workload, N, M) of the config, every point written atomically as it
// completes, a resumed file's points skipped. Needs a GPU (credit_gpu).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/log.hpp"
#include "core/results_file.hpp"
#include "core/results_meta.hpp"
#include "sweep/sweep_config.hpp"

namespace credit {

// Runs the ladder of `cfg` on device `device` into `path` (meta: the file's provenance), after
// the points of `resume` when that is not empty, and returns the results. Throws
// std::invalid_argument for a config without splits, a resume file that is not a ladder or was
// measured on another GPU; gpu::NoGpu without a suitable GPU.
ResultsFile run_ladder(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                       std::uint64_t seed, int device, const Meta& meta, const Log& log = {});

}  // namespace credit
