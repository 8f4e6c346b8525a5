#pragma once
// What calibrate measures on a device (Calibration), the time model's inputs among it, and the fitted time model a
// calibration file carries. Written to and read from calibration files (io/json_calibration.hpp).
// Rates are bytes per cycle per SM, latencies cycles, times milliseconds, unless named otherwise.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "model/time_model_params.hpp"

namespace credit {

// A kernel's launch resources (cudaFuncGetAttributes), recorded by calibrate so that the
// occupancy of any shape can be computed offline (model/occupancy.hpp).
struct KernelResources {
  std::string workload;
  std::string schedule;  // "staged", "global_reread", "cluster", "registers/TxG" (core/split.hpp)
  int threads = 0;       // per CTA
  int regs = 0;          // per thread
  long static_smem = 0;  // bytes per CTA
};

// What bounds CTAs per SM on this device (cudaDeviceProp).
struct OccupancyLimits {
  int regs_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  long reserved_smem_per_block = 0;  // the runtime's own shared memory per CTA
};

// A device-to-device copy moving `bytes` in all (read + written) and its median time.
struct CopySample {
  double bytes = 0;
  double ms = 0;
};

// One timed launch shape of a kernel probe (Calibration::kernel_probes).
struct KernelProbe {
  long long m = 0, n = 0;
  double ms = 0;  // median kernel time
  int p = 0;      // CTAs per row it ran with; 0: not recorded (before cluster_registers), the candidate's own
};

struct Calibration {
  DeviceInfo device;
  double sm_clock_hz = 0;     // f: turns cycles into seconds
  std::string clock_source;   // how f was obtained
  Stat local_load_latency;    // cycles per dependent load
  Stat remote_load_latency;
  std::map<int, Stat> local_read, local_store, remote_read, remote_store;  // key P, B/cycle/SM
  std::map<int, Stat> barrier;          // key P, cycles per cluster barrier
  std::map<int, int> max_active_clusters;  // key P, at the clustered kernel's largest smem
  // Inputs of the time model (model/time_model.hpp); empty in calibrations of schema 1 tools
  // that predate it. cluster_slots[P][k-1]: clusters of P CTAs resident at once when k CTAs
  // fit one SM (cudaOccupancyMaxActiveClusters; the GPC layout decides it, not S*k/P).
  OccupancyLimits limits;
  std::vector<KernelResources> kernels;
  std::map<int, std::vector<int>> cluster_slots;
  // The same counted on the device (microbench/residency.cuh): clusters that did run at once.
  // Empty in calibrations that predate it; the time model's waves use it where present.
  std::map<int, std::vector<int>> cluster_slots_run;
  std::vector<CopySample> copies;  // a few sizes: bandwidth and launch intercept
  // The per-workload probe: ns one SM spends per element when the operands sit in the L2 (the
  // staged kernel's time slope between two widths, warm L2): compute and on-chip traffic, what
  // a workload such as quant_int8 (IEEE division per element) is bound by beside DRAM.
  std::map<std::string, double> elem_ns;
  // The same slope with only a few SMs busy, one CTA each (16 rows, wider rows): ns one SM spends
  // per element when few others share the L2 with it. Recorded, not used by the time model (judged
  // and not adopted). Empty in calibrations that predate it.
  std::map<std::string, double> elem_ns_lone;
  // The per-workload kernel probes: each partial-retention schedule timed at one wide shape, key its
  // schedule name, and each register kernel variant at its widest row, key its kernel name
  // ("registers/512x8"; older calibrations (before 2026-12-02) hold one per register schedule
  // instead, key "registers" or "registers_deep"): kernel times as a sweep takes them, L2 flushed,
  // key workload first. The time model scales its formula for that workload's kernel by the probe's
  // measured over predicted time (partial_probe_power, register_probe_power). Empty in calibrations
  // that predate them.
  std::map<std::string, std::map<std::string, KernelProbe>> kernel_probes;
  std::optional<TimeModelParams> time_model;  // set by `credit fit-model`
};

}  // namespace credit
