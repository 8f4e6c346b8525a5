#pragma once
// The DSMEM microbenchmarks of paper Table II (DESIGN.md section 4). Each launches one cluster
// whose CTAs each take the device's opt-in shared memory, so no two share an SM (checked by
// %smid: PlacementError otherwise); each figure is the median, min and max of `runs` launches
// after one untimed launch, in SM cycles from clock64 on the SM doing the work.
// A P the device cannot co-schedule throws Unschedulable (calibration/microbench_run.hpp).
#include <string>

#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "microbench/params.hpp"

namespace credit::gpu {

using microbench::Access;

const char* access_name(Access a);  // "local read", ...

// Cycles per dependent load, pointer chase by one thread in a 2-CTA cluster: its own shared
// memory (ld.shared::cta) or its peer's (mapa + ld.shared::cluster).
Stat load_latency_cycles(bool remote, const DeviceInfo& dev, int runs = 15);

// Bytes per cycle per SM with 8 independent 16-byte accesses in flight per thread, 1024
// threads per CTA, in a cluster of p; remote accesses go to rank (rank + 1) % p. Per launch:
// the mean over the cluster's CTAs of bytes / cycles on that CTA's SM.
Stat access_bytes_per_cycle(Access a, int p, const DeviceInfo& dev, int runs = 15);

// Cycles per cluster barrier (barrier.cluster.arrive.release + wait.acquire) with the split
// kernels' SplitPolicy::threads per CTA in a cluster of p; per launch the mean over the CTAs.
Stat cluster_barrier_cycles(int p, const DeviceInfo& dev, int runs = 15);

// The SM clock f under load: clock64 cycles / cudaEvent time of spin kernels on every SM
// (the difference of a long and a short spin, which cancels launch overhead), median of `runs`.
struct SmClock {
  double hz = 0;
  std::string source;  // how hz was obtained, with cudaDevAttrClockRate beside it
};
SmClock measure_sm_clock(const DeviceInfo& dev, int runs = 7);

}  // namespace credit::gpu
