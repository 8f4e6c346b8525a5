#pragma once
// The profiled side of measured DRAM traffic (traffic/profile_traffic.hpp): run under Nsight
// Compute with --profile-from-start off, it launches the probe kernel, then for each target a
// check against the CPU execution (outside the profiled range: it also loads the kernel's module
// and grows scratch buffers, so the profiled launch is the schedule's kernels alone) and an L2
// drain, then inside cudaProfilerStart/Stop the marker kernel naming the target, one launch of
// it and a drain that writes back what it left dirty in the L2.
#include <cstdint>
#include <vector>

#include "core/device_info.hpp"
#include "traffic/launch_plan.hpp"

namespace credit::gpu {

// Per target: launched, or skipped with the reason (cannot run here, or its check failed).
// Throws CudaError when a profiled launch fails: a marker without its kernels would leave the
// kernels of the targets after it in doubt.
std::vector<traffic::ManifestEntry> run_profiled_launches(const std::vector<traffic::LaunchTarget>& targets,
                                                          const DeviceInfo& dev, std::uint64_t seed);

}  // namespace credit::gpu
