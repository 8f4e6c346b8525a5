#pragma once
// Occupancy computed on the host from a calibration's recorded kernel resources and device
// limits, so that the time model can run offline at any shape (the GPU test checks it against
// cudaOccupancyMaxActiveBlocksPerMultiprocessor / MaxActiveClusters on the device).
#include <optional>
#include <string>

#include "calibration/calibration.hpp"

namespace credit::model {

// CTAs of kernel k with `dynamic_smem` bytes each that one SM holds: the least of the block,
// thread, register (per-warp allocation in units of 256) and shared-memory limits. 0: none fits.
int ctas_per_sm(const OccupancyLimits& lim, long smem_per_sm, const KernelResources& k, long dynamic_smem);

// The recorded resources of workload w's kernel for schedule s ("staged", "global_reread",
// "cluster"), or nothing.
std::optional<KernelResources> find_kernel(const Calibration& c, const std::string& workload,
                                           const std::string& schedule);

// Rows held at once: one-CTA schedules k * S; clusters of p CTAs cluster_slots_run[p][k-1] (counted
// on the device), else cluster_slots[p][k-1] (the occupancy API); p CTAs per row without a cluster
// (split_global: `cluster` false) k * S / p, as many rows as whole sets of p resident CTAs.
// 0 when nothing fits or the table has no entry.
long long resident_rows(const Calibration& c, int p, int ctas_per_sm, bool cluster = true);

}  // namespace credit::model
