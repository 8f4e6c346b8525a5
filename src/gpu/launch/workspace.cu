#include "gpu/launch/workspace.hpp"

#include "gpu/device/cuda_check.hpp"

namespace credit::gpu {

void Workspace::launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op, const DeviceInfo& dev,
                       cudaStream_t stream, const LaunchOptions& opt) {
  const Key key{&w, s, p, op.rows, op.n, int(opt.barrier), opt.switches};
  if (key != last_) {
    const size_t need = workspace_bytes(w, s, p, op.rows, op.n, dev, opt);
    if (buf_.bytes() < need) buf_ = DeviceBuffer(need);
    if (buf_.bytes()) CREDIT_CUDA(cudaMemsetAsync(buf_.get(), 0, buf_.bytes(), stream));
    last_ = key;
  }
  gpu::launch(w, s, p, op, dev, buf_.get(), buf_.bytes(), stream, opt);
}

}  // namespace credit::gpu
