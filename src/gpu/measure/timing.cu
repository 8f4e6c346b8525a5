#include <algorithm>
#include <stdexcept>

#include "gpu/device/cuda_check.hpp"
#include "gpu/measure/timing.hpp"

namespace credit::gpu {

Timer::Timer(const DeviceInfo& dev) : scrub_(size_t(std::max<long>(dev.l2_bytes, 1 << 20)) * 2) {
  CREDIT_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  CREDIT_CUDA(cudaEventCreate(&start_));
  CREDIT_CUDA(cudaEventCreate(&stop_));
}

Timer::~Timer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaStreamDestroy(stream_);
}

// The L2 flush: the scrub buffer written with 0x5a by cudaMemsetAsync (zeros: no systematic change; a fill kernel of
// our own, as triton.testing.do_bench flushes: geomeans within 1.1%).
void Timer::flush() { CREDIT_CUDA(cudaMemsetAsync(scrub_.get(), 0x5a, scrub_.bytes(), stream_)); }

Stat summarize(std::vector<double> v) {
  Stat s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  s.runs = int(n);
  return s;
}

Stat Timer::time(const std::function<void()>& enqueue, const TimingOptions& opt) {
  for (int i = 0; i < opt.warmup; ++i) enqueue();
  CREDIT_CUDA(cudaStreamSynchronize(stream_));
  std::vector<double> ms;
  // One sample at a time, each waited for: enqueuing every sample before waiting (as triton.testing.do_bench does)
  // ran credit's register kernels 0.3-1.0 us slower at 256 rows.
  for (int i = 0; i < opt.samples; ++i) {
    if (opt.flush_l2) flush();
    CREDIT_CUDA(cudaEventRecord(start_, stream_));
    enqueue();
    CREDIT_CUDA(cudaEventRecord(stop_, stream_));
    CREDIT_CUDA(cudaEventSynchronize(stop_));
    float t = 0;
    CREDIT_CUDA(cudaEventElapsedTime(&t, start_, stop_));
    ms.push_back(t);
  }
  return summarize(std::move(ms));
}

namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = __ldcs(in + i);
}

}  // namespace

CopyBandwidth measure_copy_bandwidth(Timer& timer, size_t bytes) {
  DeviceBuffer a(bytes), b(bytes);
  a.fill_bytes(1);
  const TimingOptions opt{3, 20, true};
  CopyBandwidth bw;
  const Stat m = timer.time([&] {
    CREDIT_CUDA(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, timer.stream()));
  }, opt);
  bw.memcpy_gbps = 2.0 * double(bytes) / (m.median * 1e6);
  int sms = 0, dev = 0;
  CREDIT_CUDA(cudaGetDevice(&dev));
  CREDIT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const size_t n = bytes / 16;
  const Stat k = timer.time([&] {
    copy_kernel<<<sms * 8, 512, 0, timer.stream()>>>(a.get<const float4>(), b.get<float4>(), n);
    CREDIT_CUDA_LAUNCHED();
  }, opt);
  bw.kernel_gbps = 2.0 * double(bytes) / (k.median * 1e6);
  return bw;
}

void launch_vector_copy(const void* in, void* out, size_t bytes, cudaStream_t stream) {
  if (bytes % 16) throw std::invalid_argument("launch_vector_copy: bytes must be a multiple of 16");
  int sms = 0, dev = 0;
  CREDIT_CUDA(cudaGetDevice(&dev));
  CREDIT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  copy_kernel<<<sms * 8, 512, 0, stream>>>(static_cast<const float4*>(in), static_cast<float4*>(out), bytes / 16);
  CREDIT_CUDA_LAUNCHED();
}

Stat time_copy_of_traffic(Timer& timer, double traffic_bytes, const TimingOptions& opt) {
  const size_t half = std::max<size_t>(16, size_t(traffic_bytes / 2) / 16 * 16);
  DeviceBuffer a(half), b(half);
  a.fill_bytes(1);
  return timer.time([&] {
    CREDIT_CUDA(cudaMemcpyAsync(b.get(), a.get(), half, cudaMemcpyDeviceToDevice, timer.stream()));
  }, opt);
}

}  // namespace credit::gpu
