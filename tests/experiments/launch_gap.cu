// An experiment (not a test): where does the time go between credit's event-timed short-row kernel and
// its own duration? At 256 x 2048 credit's time sat 1.8 us above its kernel's Nsight Compute duration, Triton's
// 0.7 us (measured on the H200); neither the L2 flush nor the sample loop explained it. Here one
// copy-like kernel (256 CTAs of 256 threads, each CTA reading and writing 8 KB: a row of 2048 floats) is timed by
// credit's Timer, as a sweep times a point (L2 flushed, start event, launch, stop event, wait), in variants
// that each change one thing credit's register kernels do and a plain kernel does not:
//   plain         <<<>>> launch, a 32-byte parameter block
//   launch_ex     cudaLaunchKernelEx (credit's launches)
//   params_184    a 184-byte __grid_constant__ parameter block (RowOperands' size)
//   both          launch_ex with params_184
//   empty         no loads or stores (the launch and the stamps alone)
// Each sample also reads the kernel's own span from %globaltimer: the first CTA's first instruction to the last
// CTA's last store. Printed per variant: the event time's median, the span's median and their difference (what the
// launch, the first CTA's start and the drain after the last store cost). Run: build/tests/credit_launch_gap
// [samples] on the GPU machine (`scripts/gpu-check.sh launchgap`, which times credit's own kernels on the same
// machine); exit 77 without a GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/timing.hpp"
#include "kernels/global_timer.cuh"

namespace {

using credit::gpu::DeviceBuffer;

constexpr int kCtas = 256, kThreads = 256, kGroups = 2;  // 256 x 2 float4 = 8 KB per CTA

template <int Bytes>  // the whole parameter block: three pointers and padding
struct Params {
  const float4* in;
  float4* out;
  unsigned long long* clock;  // [0] earliest start, [1] latest end (ns)
  char pad[Bytes - 24];
};
static_assert(sizeof(Params<32>) == 32 && sizeof(Params<184>) == 184);

template <int Bytes, bool Work>
__device__ __forceinline__ void probe_body(const Params<Bytes>& p) {
  if (threadIdx.x == 0) atomicMin(p.clock, credit::kernels::global_ns());
  float4 v[kGroups];
  const size_t base = size_t(blockIdx.x) * kThreads * kGroups + threadIdx.x;
  if constexpr (Work)
#pragma unroll
    for (int g = 0; g < kGroups; ++g) v[g] = __ldcs(p.in + base + g * kThreads);
  __syncthreads();  // one CTA barrier, as a reduction has
  if constexpr (Work)
#pragma unroll
    for (int g = 0; g < kGroups; ++g) __stcs(p.out + base + g * kThreads, v[g]);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();  // the CTA's stores before its end stamp
    atomicMax(p.clock + 1, credit::kernels::global_ns());
  }
}

template <int Bytes, bool Work>
__global__ void __launch_bounds__(kThreads) probe_kernel(const __grid_constant__ Params<Bytes> p) {
  probe_body<Bytes, Work>(p);
}

// Timed by credit's own Timer (the sweep's harness: L2 flushed, then events around the launch, sample by sample).
// Each launch stamps its own pair of clock slots, [0] earliest start (all ones before) and [1] latest end (zero
// before), so that the spans can be read after the timing instead of between its samples.
template <int Bytes, bool Work>
void time_variant(const char* name, bool launch_ex, int samples, DeviceBuffer& in, DeviceBuffer& out,
                  credit::gpu::Timer& timer) {
  const credit::gpu::TimingOptions opt{3, samples, true};
  const int launches = opt.warmup + opt.samples;
  std::vector<unsigned long long> clocks(2 * size_t(launches), 0);
  for (int i = 0; i < launches; ++i) clocks[2 * i] = ~0ull;
  DeviceBuffer clock(clocks.size() * sizeof clocks[0]);
  CREDIT_CUDA(cudaMemcpy(clock.get(), clocks.data(), clock.bytes(), cudaMemcpyHostToDevice));
  Params<Bytes> p{};
  p.in = in.get<const float4>();
  p.out = out.get<float4>();
  int launched = 0;
  const credit::Stat event = timer.time([&] {
    p.clock = clock.get<unsigned long long>() + 2 * launched++;
    if (launch_ex) {
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(kCtas);
      cfg.blockDim = dim3(kThreads);
      cfg.stream = timer.stream();
      CREDIT_CUDA(cudaLaunchKernelEx(&cfg, probe_kernel<Bytes, Work>, p));
    } else {
      probe_kernel<Bytes, Work><<<kCtas, kThreads, 0, timer.stream()>>>(p);
    }
    CREDIT_CUDA_LAUNCHED();
  }, opt);
  if (launched != launches) throw std::logic_error(std::string(name) + ": the timer launched an unexpected count");
  CREDIT_CUDA(cudaMemcpy(clocks.data(), clock.get(), clock.bytes(), cudaMemcpyDeviceToHost));
  std::vector<double> span_us;
  for (int i = opt.warmup; i < launches; ++i) {
    if (clocks[2 * i + 1] < clocks[2 * i]) throw std::runtime_error(std::string(name) + ": a launch left no span");
    span_us.push_back(double(clocks[2 * i + 1] - clocks[2 * i]) * 1e-3);
  }
  const double e = event.median * 1e3, s = credit::gpu::summarize(std::move(span_us)).median;
  std::printf("%-12s %10.2f %10.2f %10.2f\n", name, e, s, e - s);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      std::fprintf(stderr, "credit_launch_gap: no CUDA device; nothing to measure\n");
      return 77;
    }
    const int samples = argc > 1 ? std::atoi(argv[1]) : 50;
    if (samples < 1) throw std::invalid_argument("samples must be a positive integer");
    const credit::DeviceInfo dev = credit::gpu::use_device(0);
    const size_t bytes = size_t(kCtas) * kThreads * kGroups * sizeof(float4);
    DeviceBuffer in(bytes), out(bytes);
    in.fill_bytes(1);
    credit::gpu::Timer timer(dev);
    std::printf("# %s, %d CTAs x %d threads, %zu B read and written, %d samples (L2 flushed before each)\n",
                dev.name.c_str(), kCtas, kThreads, bytes, samples);
    std::printf("%-12s %10s %10s %10s\n", "variant", "event us", "span us", "gap us");
    time_variant<32, true>("plain", false, samples, in, out, timer);
    time_variant<32, true>("launch_ex", true, samples, in, out, timer);
    time_variant<184, true>("params_184", false, samples, in, out, timer);
    time_variant<184, true>("both", true, samples, in, out, timer);
    time_variant<32, false>("empty", false, samples, in, out, timer);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "credit_launch_gap: %s\n", e.what());
    return 1;
  }
}
