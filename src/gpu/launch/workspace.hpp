#pragma once
// A caller-owned launch workspace that grows to what each launch needs (gpu::workspace_bytes) and
// is zero-filled on the launch's stream whenever the launch differs from its last one. Launches of
// the same shape after the first allocate and clear nothing, so they can be captured in a graph.
// One per stream (or per problem): it serves one launch at a time.
#include <cuda_runtime.h>

#include <tuple>

#include "gpu/device/device_buffer.hpp"
#include "gpu/launch/schedules.hpp"

namespace credit::gpu {

class Workspace {
 public:
  // Launches like gpu::launch, with this workspace.
  void launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op, const DeviceInfo& dev,
              cudaStream_t stream, const LaunchOptions& opt = {});
  size_t bytes() const { return buf_.bytes(); }

 private:
  using Key = std::tuple<const WorkloadInfo*, Schedule, int, long long, int, int, unsigned>;
  DeviceBuffer buf_;
  Key last_{};
};

}  // namespace credit::gpu
