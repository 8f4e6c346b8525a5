#include "gpu/measure/profiled_launches.hpp"

#include <cuda_profiler_api.h>

#include <memory>
#include <stdexcept>
#include <tuple>

#include "core/workload_registry.hpp"
#include "gpu/measure/bench.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/launch/device_problem.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/measure/timing.hpp"

// Unmangled, so that ncu prints the names traffic/launch_plan.hpp looks for. The probe and the
// marker touch no memory.
extern "C" __global__ void credit_traffic_probe() {}
extern "C" __global__ void credit_traffic_marker() {}

// Reads n float4 into the L2 and writes nothing (the buffer holds zeros, so the store never
// happens but keeps the loads): it evicts whatever the L2 held, writing back what was dirty.
extern "C" __global__ void credit_traffic_drain(const float4* __restrict__ p, size_t n, float* sink) {
  float acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const float4 v = __ldcg(p + i);
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc != 0.0f) *sink = acc;
}

namespace credit::gpu {

namespace {

class Stream {
 public:
  Stream() { CREDIT_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// Four times the L2 of clean lines read through it, so that nothing from before stays there.
class L2Drain {
 public:
  explicit L2Drain(const DeviceInfo& dev)
      : n_(4 * size_t(dev.l2_bytes > 0 ? dev.l2_bytes : 64 << 20) / sizeof(float4)),
        buf_(n_ * sizeof(float4)),
        sink_(sizeof(float)),
        blocks_(dev.sm_count * 8) {
    buf_.fill_bytes(0);
    CREDIT_CUDA(cudaDeviceSynchronize());  // the memset runs on the legacy stream, ours does not wait for it
  }
  void run(cudaStream_t stream) {
    credit_traffic_drain<<<blocks_, 512, 0, stream>>>(buf_.get<const float4>(), n_, sink_.get<float>());
    CREDIT_CUDA_LAUNCHED();
  }

 private:
  size_t n_;
  DeviceBuffer buf_, sink_;
  int blocks_;
};

// Profiles whatever `launch` enqueues, with the L2 holding clean lines only before it (a drain
// outside the profiled range) and written back after it (a profiled drain, whose DRAM writes are
// the target's: a kernel's last writes are still in the L2 when it ends, and ncu's own cache
// flush would write them back unmeasured). A marker whose grid names the target comes first.
template <class F>
void profiled(cudaStream_t stream, L2Drain& drain, std::size_t target, F&& launch) {
  drain.run(stream);
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  CREDIT_CUDA(cudaProfilerStart());
  credit_traffic_marker<<<dim3(unsigned(target) + 1), 1, 0, stream>>>();
  CREDIT_CUDA_LAUNCHED();
  launch();
  drain.run(stream);
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  CREDIT_CUDA(cudaProfilerStop());
}

}  // namespace

std::vector<traffic::ManifestEntry> run_profiled_launches(const std::vector<traffic::LaunchTarget>& targets,
                                                          const DeviceInfo& dev, std::uint64_t seed) {
  Stream stream;
  L2Drain drain(dev);
  CREDIT_CUDA(cudaProfilerStart());
  credit_traffic_probe<<<1, 1, 0, stream.get()>>>();
  CREDIT_CUDA_LAUNCHED();
  CREDIT_CUDA(cudaStreamSynchronize(stream.get()));
  CREDIT_CUDA(cudaProfilerStop());

  std::vector<traffic::ManifestEntry> out(targets.size());
  std::unique_ptr<DeviceProblem> prob;  // one shape at a time: targets come grouped by shape
  std::tuple<std::string, long long, long long> shape;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const traffic::LaunchTarget& t = targets[i];
    if (t.schedule == traffic::kCopyTarget) {
      const size_t bytes = size_t(t.m) * size_t(t.n) * sizeof(float);
      if (bytes % 16) {
        out[i].reason = "the copy kernel moves 16-byte vectors: m x n must be a multiple of 4";
        continue;
      }
      prob.reset();
      DeviceBuffer a(bytes), b(bytes);
      a.fill_bytes(1);
      CREDIT_CUDA(cudaDeviceSynchronize());
      launch_vector_copy(a.get(), b.get(), bytes, stream.get());  // outside the range: loads the module
      profiled(stream.get(), drain, i, [&] { launch_vector_copy(a.get(), b.get(), bytes, stream.get()); });
      out[i].launched = true;
      continue;
    }
    const WorkloadInfo& w = find_workload(t.workload);
    const Schedule s = parse_schedule(t.schedule);
    if (const Support sup = can_implement(w, s, t.p, t.m, t.n, dev); !sup.ok) {
      out[i].reason = sup.reason;
      continue;
    }
    if (!prob || shape != std::make_tuple(t.workload, t.m, t.n)) {
      prob.reset();  // free the last shape's tensors first
      prob = std::make_unique<DeviceProblem>(w, t.m, t.n, seed);
      shape = {t.workload, t.m, t.n};
    }
    const CheckResult chk = check_schedule(*prob, s, t.p, dev, stream.get(), seed);
    if (!chk.ok) {
      out[i].reason = "its check failed: " + chk.reason;
      continue;
    }
    // The problem's workspace: the check's launch of the same shape left it ready, so the profiled
    // launch clears nothing.
    profiled(stream.get(), drain, i,
             [&] { prob->workspace().launch(w, s, t.p, prob->operands(), dev, stream.get()); });
    out[i].launched = true;
  }
  return out;
}

}  // namespace credit::gpu
