// The public launchers (include/credit/launch.hpp) over gpu::can_implement, gpu::workspace_bytes
// and gpu::launch, on the current device.
#include "credit/launch.hpp"

#include <map>
#include <mutex>
#include <stdexcept>

#include "core/workload_registry.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/launch/schedules.hpp"

namespace credit {

namespace {

// The current device's identity and limits, queried once per device (a per-process fact).
const DeviceInfo& current_device() {
  static std::mutex lock;
  static std::map<int, DeviceInfo> known;
  int device = 0;
  CREDIT_CUDA(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> hold(lock);
  auto it = known.find(device);
  if (it == known.end()) it = known.emplace(device, gpu::query_device(device)).first;
  return it->second;  // std::map never moves its elements
}

// The workload of a problem whose M and N fit the kernels' index types.
const WorkloadInfo& workload_of(const Problem& pb) {
  const WorkloadInfo& w = find_workload(pb.workload);
  if (pb.n > (1LL << 30)) throw std::invalid_argument("N exceeds 2^30 elements");
  return w;
}

template <class T, size_t K>
void copy_pointers(const std::vector<T>& from, T (&to)[K], size_t want, const char* what, const std::string& name) {
  if (from.size() != want)
    throw std::invalid_argument(name + " takes " + std::to_string(want) + " " + what + ", got " +
                                std::to_string(from.size()));
  for (size_t k = 0; k < want; ++k) to[k] = from[k];
}

RowOperands operands_of(const WorkloadInfo& w, const Problem& pb, const Tensors& t) {
  RowOperands op;
  copy_pointers(t.inputs, op.in, w.inputs.size(), "inputs", w.name);
  copy_pointers(t.col_params, op.col, w.col_params.size(), "col_params", w.name);
  copy_pointers(t.row_params, op.row_in, w.row_params.size(), "row_params", w.name);
  copy_pointers(t.outputs, op.out, w.outputs.size(), "outputs", w.name);
  copy_pointers(t.row_outputs, op.row_out, w.row_outputs.size(), "row_outputs", w.name);
  if (const std::string why = operands_refusal(op, int(w.inputs.size()), int(w.col_params.size()),
                                               int(w.row_params.size()), int(w.outputs.size()),
                                               int(w.row_outputs.size()));
      !why.empty())
    throw std::invalid_argument(w.name + ": " + why);
  op.rows = pb.m;
  op.n = int(pb.n);
  return op;
}

}  // namespace

Status can_implement(const Problem& pb) {
  const WorkloadInfo& w = workload_of(pb);
  try {
    const gpu::Support s = gpu::can_implement(w, pb.schedule, pb.p, pb.m, pb.n, current_device());
    return {s.ok, s.reason};
  } catch (const gpu::NoGpu& e) {  // no such device, or one without thread-block clusters
    return {false, e.what()};
  }
}

std::size_t workspace_bytes(const Problem& pb) {
  return gpu::workspace_bytes(workload_of(pb), pb.schedule, pb.p, pb.m, pb.n, current_device());
}

void run(const Problem& pb, const Tensors& t, void* workspace, std::size_t bytes, cudaStream_t stream) {
  const WorkloadInfo& w = workload_of(pb);
  const RowOperands op = operands_of(w, pb, t);  // the tensors checked before the device is asked anything
  gpu::launch(w, pb.schedule, pb.p, op, current_device(), workspace, bytes, stream);
}

}  // namespace credit
