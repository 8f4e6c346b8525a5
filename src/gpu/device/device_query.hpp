#pragma once
#include "core/device_info.hpp"

namespace credit::gpu {

struct NoGpu : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Number of CUDA devices; 0 when there is no GPU or no driver (never throws).
int device_count();

// Identity and limits of `device`, read off the device. Throws NoGpu with a clear message when
// there is no such device, and when it cannot launch thread-block clusters (compute < 9.0).
DeviceInfo query_device(int device);

// Selects `device` for this thread after query_device's checks.
DeviceInfo use_device(int device);

}  // namespace credit::gpu
