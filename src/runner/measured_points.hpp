#pragma once
// The model's measured inputs as results points, so that a file can be re-evaluated later
// (sweep/reevaluate.hpp): a copy of the shape's compulsory bytes and the work-free control per P.
// Needs a GPU (credit_gpu).
#include "core/device_info.hpp"
#include "core/sweep_point.hpp"
#include "core/workload_registry.hpp"
#include "gpu/measure/timing.hpp"

namespace credit {

// A device-to-device copy of the shape's compulsory bytes, as a results point "copy".
SweepPoint copy_point(const WorkloadInfo& w, long long m, long long n, gpu::Timer& timer);
// T_ctrl of the clustered schedule at P (the control kernels), as a results point "control".
SweepPoint control_point(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev,
                         gpu::Timer& timer);

}  // namespace credit
