#pragma once
// Whether a problem's buffers fit the device before anything is allocated: a shape that cannot
// fit is bad input (exit 2), said in bytes, rather than a cudaMalloc error halfway through a run.
#include <string>

#include "core/device_info.hpp"
#include "core/workload_registry.hpp"

namespace credit {

// Bytes of the buffers gpu::DeviceProblem allocates for rows x n: every input and output plane
// (M x N elements each, 4 B per float, 1 B per int8 output), the column parameters (N floats
// each) and the row parameters and outputs (M floats each). Scratch of the split schedules
// comes on top, hence the headroom below.
double problem_bytes(const WorkloadInfo& w, long long rows, long long n);

// The share of the device memory the operands may take: the rest is left to the CUDA context,
// the split schedules' scratch and the copy buffers of the same run.
inline constexpr double kDeviceMemoryShare = 0.9;

// "" when problem_bytes fits kDeviceMemoryShare of dev.global_mem_bytes, else why not, e.g.
// "layernorm 1000000x1048576: its operands take 12582.9 GB, more than 90% of the device's 143.7 GB".
std::string device_memory_problem(const WorkloadInfo& w, long long rows, long long n, const DeviceInfo& dev);

}  // namespace credit
