#pragma once
// Timing with CUDA events: warm-up first, L2 flushed before every sample, median of many.
#include <cuda_runtime.h>

#include <functional>

#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "gpu/device/device_buffer.hpp"

namespace credit::gpu {

struct TimingOptions {
  int warmup = 3;
  int samples = 20;
  bool flush_l2 = true;
};

class Timer {
 public:
  explicit Timer(const DeviceInfo& dev);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Times `enqueue` (which launches work on stream()) and returns milliseconds per call.
  Stat time(const std::function<void()>& enqueue, const TimingOptions& opt);
  cudaStream_t stream() const { return stream_; }

 private:
  void flush();
  DeviceBuffer scrub_;  // twice the L2, written between samples to evict the operands
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

Stat summarize(std::vector<double> samples);

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written): the faster of
// cudaMemcpyAsync and a 16-byte-vector copy kernel, over `bytes` (at least 1 GiB).
struct CopyBandwidth {
  double memcpy_gbps = 0, kernel_gbps = 0;
  double best() const { return memcpy_gbps > kernel_gbps ? memcpy_gbps : kernel_gbps; }
};
CopyBandwidth measure_copy_bandwidth(Timer& timer, size_t bytes = size_t(1) << 30);

// The 16-byte-vector copy kernel of measure_copy_bandwidth on `stream`, `bytes` a multiple of 16:
// it reads `bytes` and writes `bytes` (the reference of the traffic measurement's GPU test).
void launch_vector_copy(const void* in, void* out, size_t bytes, cudaStream_t stream);

// A device-to-device copy that moves `traffic_bytes` in all (half read, half written), timed
// like the kernels (L2 flushed, median): the bandwidth floor of a shape with the same traffic,
// launch and tail included.
Stat time_copy_of_traffic(Timer& timer, double traffic_bytes, const TimingOptions& opt);

}  // namespace credit::gpu
