#pragma once
// The time model's per-device inputs (model/time_model.hpp), measured once by calibrate: the
// occupancy limits, every modelled kernel's resources, the clusters of each size the device holds
// at k CTAs per SM, copies at a few sizes, a per-workload probe (the staged kernel with its
// operands in the L2) and the kernel probes (each workload's partial kernels at one wide shape, its register kernels
// at one short one, its staged, global_reread and clustered kernels at one shape each).
#include "calibration/calibration.hpp"
#include "core/device_info.hpp"

namespace credit::gpu {

// Fills c.limits, c.kernels, c.cluster_slots (P in ps, k = 1 .. CTAs of SplitPolicy::threads an
// SM can hold; the API's figure) and c.cluster_slots_run (the same counted running on the device),
// c.copies, c.elem_ns and c.kernel_probes on the current device.
void measure_model_inputs(Calibration& c, const DeviceInfo& dev, const std::vector<int>& ps);

}  // namespace credit::gpu
