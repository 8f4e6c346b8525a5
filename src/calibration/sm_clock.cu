// f, the SM clock that turns cycles into seconds, measured under load.
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "calibration/microbench.hpp"
#include "gpu/measure/timing.hpp"
#include "microbench/clock_spin.cuh"

namespace credit::gpu {

namespace {

struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    CREDIT_CUDA(cudaEventCreate(&start));
    CREDIT_CUDA(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};

constexpr long long kShortSpin = 2'000'000;   // ~1 ms at 2 GHz
constexpr long long kLongSpin = 20'000'000;   // ~10 ms

// Milliseconds of one spin of `cycles` on every SM; `spun` gets CTA 0's exact cycle count.
double spin_ms(const DeviceInfo& dev, EventPair& ev, DeviceBuffer& out, long long cycles, long long& spun) {
  CREDIT_CUDA(cudaEventRecord(ev.start));
  microbench::clock_spin_kernel<<<dev.sm_count, 32>>>(cycles, out.get<long long>());
  CREDIT_CUDA_LAUNCHED();
  CREDIT_CUDA(cudaEventRecord(ev.stop));
  CREDIT_CUDA(cudaEventSynchronize(ev.stop));
  float ms = 0;
  CREDIT_CUDA(cudaEventElapsedTime(&ms, ev.start, ev.stop));
  out.download(&spun, sizeof spun);
  return ms;
}

}  // namespace

SmClock measure_sm_clock(const DeviceInfo& dev, int runs) {
  EventPair ev;
  DeviceBuffer out(sizeof(long long));
  long long spun_short = 0, spun_long = 0;
  spin_ms(dev, ev, out, kLongSpin, spun_long);  // untimed: the clock ramps up from idle
  std::vector<double> hz;
  for (int i = 0; i < runs; ++i) {
    const double ms_short = spin_ms(dev, ev, out, kShortSpin, spun_short);
    const double ms_long = spin_ms(dev, ev, out, kLongSpin, spun_long);
    if (ms_long <= ms_short) throw std::runtime_error("SM clock: the long spin did not take longer than the short one");
    hz.push_back(double(spun_long - spun_short) / ((ms_long - ms_short) * 1e-3));
  }
  const Stat s = summarize(std::move(hz));
  char text[320];
  std::snprintf(text, sizeof text,
                "clock64 cycles / cudaEvent time: difference of %.0e- and %.0e-cycle spin kernels on every SM, "
                "median of %d = %.1f MHz (min %.1f, max %.1f); cudaDevAttrClockRate %.1f MHz",
                double(kLongSpin), double(kShortSpin), s.runs, s.median * 1e-6, s.min * 1e-6, s.max * 1e-6,
                dev.sm_clock_khz * 1e-3);
  return {s.median, text};
}

}  // namespace credit::gpu
