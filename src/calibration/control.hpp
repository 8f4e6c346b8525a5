#pragma once
// T_ctrl(M, N, P) of the profitability model (DESIGN.md section 3, paper Eq. 9): the time of a
// work-free control kernel with the clustered kernel's grid (M*P CTAs), cluster size P,
// dynamic shared memory (gpu::smem_bytes of the cluster schedule) and CTA size
// (SplitPolicy::threads), doing no memory work but K = 2L cluster barriers, minus the time of
// the same control with one CTA per row. It prices launch, scheduling, occupancy and
// synchronisation, not data movement.
//
// The one-CTA reference (P = 1): M CTAs, no cluster, K __syncthreads, and the dynamic shared
// memory the staged kernel would take at P = 1 when the row fits in one CTA; when it does not
// (the CUDA baseline is then global-reread), the largest legal amount, the device's opt-in
// maximum, i.e. one CTA per SM as a staged kernel at the edge of legality would run.
//
// Residency: the control needs few registers, so where shared memory does not bind it could
// hold more CTAs per SM than the real kernel, whose register budget caps it. The control then
// asks for just enough extra shared memory to hold no more clusters (P = 1: CTAs) at once than
// the real kernel does (cudaOccupancyMaxActiveClusters / MaxActiveBlocksPerMultiprocessor).
#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "core/workload_registry.hpp"
#include "gpu/measure/timing.hpp"

namespace credit::gpu {

struct ControlLaunch {
  long long ctas = 0;       // M * P
  int p = 1;                // cluster size; 1: the one-CTA reference
  int threads = 0;
  long schedule_smem = 0;   // dynamic shared memory per CTA of the schedule it stands for
  long smem = 0;            // what the control requests: schedule_smem, raised to match residency
  int resident = 0;         // clusters (P = 1: CTAs) the real kernel and the control hold at once
  int barriers = 0;         // K = 2L
};

// Warm-up, then the median of 15; no L2 flush (the control touches no memory).
inline constexpr TimingOptions kControlTiming{3, 15, false};

// The launch the control makes for workload w at m x n and P (1, 2, 4, 8 or 16). Throws
// std::invalid_argument, with can_implement's reason, when the clustered kernel is not legal
// there (the control would measure a schedule that cannot run).
ControlLaunch control_launch(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev);

// Times the control on timer.stream() (CUDA events): milliseconds per launch.
Stat control_time(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                  const TimingOptions& opt = kControlTiming);

double control_time_ms(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                       const TimingOptions& opt = kControlTiming);

// control_time_ms(P) - control_time_ms(1), medians of each. May be negative where the
// clustered control is the faster one.
double t_ctrl_ms(const WorkloadInfo& w, long long m, long long n, int p, const DeviceInfo& dev, Timer& timer,
                 const TimingOptions& opt = kControlTiming);

}  // namespace credit::gpu
