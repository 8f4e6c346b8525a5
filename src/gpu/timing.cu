#include <algorithm>
#include <stdexcept>

#include "gpu/cuda_check.hpp"
#include "gpu/timing.hpp"

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

#ifndef CREDIT_FLUSH_BYTE  // a build option for A/B runs: the byte the L2 flush writes
#define CREDIT_FLUSH_BYTE 0x5a
#endif

#ifndef CREDIT_FLUSH_KERNEL  // a build option for A/B runs: 1 writes the scrub buffer with a kernel of our own,
#define CREDIT_FLUSH_KERNEL 0  // as do_bench's flush (torch's zero_) does, instead of cudaMemsetAsync
#endif

namespace {

__global__ void fill_kernel(uint4* __restrict__ out, size_t n, unsigned word) {
  const uint4 v{word, word, word, word};
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) out[i] = v;
}

}  // namespace

void Timer::flush() {
  if constexpr (CREDIT_FLUSH_KERNEL != 0) {
    static const int sms = [] {  // once, not before every timed sample
      int n = 0, dev = 0;
      CREDIT_CUDA(cudaGetDevice(&dev));
      CREDIT_CUDA(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
      return n;
    }();
    const unsigned byte = CREDIT_FLUSH_BYTE & 0xff;
    fill_kernel<<<sms * 8, 512, 0, stream_>>>(scrub_.get<uint4>(), scrub_.bytes() / 16, byte * 0x01010101u);
    CREDIT_CUDA_LAUNCHED();
  } else {
    CREDIT_CUDA(cudaMemsetAsync(scrub_.get(), CREDIT_FLUSH_BYTE, scrub_.bytes(), stream_));
  }
}

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

#ifndef CREDIT_TIMER_BACK_TO_BACK  // a build option for A/B runs: 1 enqueues every sample before waiting,
#define CREDIT_TIMER_BACK_TO_BACK 0  // as triton.testing.do_bench does (the peers' harness)
#endif

Stat Timer::time(const std::function<void()>& enqueue, const TimingOptions& opt) {
  for (int i = 0; i < opt.warmup; ++i) enqueue();
  CREDIT_CUDA(cudaStreamSynchronize(stream_));
  std::vector<double> ms;
  if constexpr (CREDIT_TIMER_BACK_TO_BACK != 0) {
    struct Events {  // destroyed however the loop ends
      std::vector<cudaEvent_t> e;
      ~Events() { for (cudaEvent_t x : e) cudaEventDestroy(x); }
    } events;
    auto& ev = events.e;
    for (int i = 0; i < 2 * opt.samples; ++i) {
      cudaEvent_t e = nullptr;
      CREDIT_CUDA(cudaEventCreate(&e));
      ev.push_back(e);
    }
    for (int i = 0; i < opt.samples; ++i) {
      if (opt.flush_l2) flush();
      CREDIT_CUDA(cudaEventRecord(ev[2 * i], stream_));
      enqueue();
      CREDIT_CUDA(cudaEventRecord(ev[2 * i + 1], stream_));
    }
    CREDIT_CUDA(cudaStreamSynchronize(stream_));
    for (int i = 0; i < opt.samples; ++i) {
      float t = 0;
      CREDIT_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
      ms.push_back(t);
    }
  } else {
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
