#pragma once
// The time model's per-device inputs (model/time_model.hpp), measured once by calibrate: the
// occupancy limits, every modelled kernel's resources, the clusters of each size the device holds
// at k CTAs per SM, and copies at a few sizes. Well under a second on an H200.
#include "core/records.hpp"

namespace credit::gpu {

// Fills c.limits, c.kernels, c.cluster_slots (P in ps, k = 1 .. CTAs of SplitPolicy::threads an
// SM can hold) and c.copies on the current device.
void measure_model_inputs(Calibration& c, const DeviceInfo& dev, const std::vector<int>& ps);

}  // namespace credit::gpu
