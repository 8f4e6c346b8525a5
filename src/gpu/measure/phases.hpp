#pragma once
// Where a split-row kernel's time goes (credit bench --phases): every CTA stamps %globaltimer
// at its phase boundaries (start, each stage accumulated and exchanged, outputs issued); the
// timeline (sweep/phase_timeline.hpp) is each mark's median and latest time over the CTAs, from the
// earliest CTA start, and each CTA's time since its previous mark.
// Warm (the launch runs `runs` times, the last one is read); the stamps cost a few stores.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/operands.hpp"
#include "gpu/launch/schedules.hpp"
#include "sweep/phase_timeline.hpp"

namespace credit::gpu {

using credit::PhaseMark;

// The split-row kernel's schedules only (traits phase_marks: staged, cluster, partial, megakernel,
// split_global; std::invalid_argument otherwise).
std::vector<PhaseMark> time_phases(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op,
                                   const DeviceInfo& dev, cudaStream_t stream, int runs = 5);

}  // namespace credit::gpu
