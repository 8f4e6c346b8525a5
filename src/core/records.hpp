#pragma once
// Plain data written to and read from the JSON results files (io/json_records.hpp).
// Times are milliseconds, rates bytes per cycle per SM, latencies cycles, unless named otherwise.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shape_draw.hpp"

namespace credit {

inline constexpr int kSchemaVersion = 1;

struct Meta {
  std::vector<std::string> argv;
  std::string tool_version;
  std::string git_sha;
  std::string utc_time;  // ISO 8601, e.g. 2026-11-29T11:02:03Z
  // The A/B definitions the build was compiled with ("CREDIT_CLUSTER_POLICY=2", several space-separated; empty: the
  // defaults; files written before it was recorded read as empty too, see build_defines_recorded).
  std::string build_defines;
  bool build_defines_recorded = true;
};

struct DeviceInfo {
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-..." as nvidia-smi prints it
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;       // cudaDevAttrClockRate (maximum boost clock)
  int mem_clock_khz = 0;
  int mem_bus_width_bits = 0;
  long smem_per_block_optin = 0;  // S_max of Eq. 3
  long smem_per_sm = 0;
  long l2_bytes = 0;
  long long global_mem_bytes = 0;
  int driver_version = 0, runtime_version = 0;
  bool cluster_launch = false;
};

struct Stat {
  double median = 0, min = 0, max = 0;
  int runs = 0;
};

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

// The time model's fitted constants (model/time_model.hpp says what each term is). Units:
// microseconds and GB/s. fitted_on names the sweep file(s) they were fitted on; empty: not set.
struct TimeModelParams {
  double cta_us = 0;         // fixed cost of a CTA's row task per wave (prologue, epilogue)
  double staging_us = 0;     // extra fixed cost of staging in shared memory (mbarriers, bulk copies)
  double stage_us = 0;       // per stage: the CTA reduction and its barriers
  double cluster_us = 0;     // per wave of clusters: cluster launch and DSMEM handshake
  double barrier_scale = 0;  // multiplies K calibrated cluster barriers per wave
  double split_cta_gbps = 0;   // one CTA's stream rate, staged and clustered kernels
  double reread_cta_gbps = 0;  // one CTA's stream rate, global-reread kernel
  double register_cta_gbps = 0;  // one CTA's stream rate, register-resident kernel
  double partial_cta_gbps = 0;   // one CTA's rate for the part of its slice the partial kernel streams,
                                 // two CTAs sharing an SM (an SM streams twice that, shared by its CTAs)
  double l2_share = 0;       // fraction of the L2 that keeps rows for their re-reads
  double l2_gbps = 0;        // bandwidth of re-reads served by the L2
  double col_gbps = 0;       // one CTA's rate of column parameters (e.g. gamma, beta) from the L2
  double sm_work_scale = 1;  // multiplies the probe's SM work per element (Calibration::elem_ns)
  double serial_share = 0;  // share of the shorter of memory and SM work a lone CTA per SM leaves exposed
  double serial_power = 1;  // ... divided by (CTAs per SM)^serial_power
  double col_exposed_share = 0;  // share of a CTA's column-parameter reads no other CTA's loads hide: at k
  double col_exposed_power = 1;  // CTAs per SM, min(1, col_exposed_share / k^col_exposed_power)
  double fixed_exposed_share = 1;  // share of a wave's fixed cost, after the first wave, that adds to
                                   // it; the rest overlaps other CTAs' streams (1: all of it)
  double work_exposed_share = 0;  // share of a CTA's own SM work that adds to the wave at one CTA per SM
                                  // (divided by k^serial_power): h after the last exchange (0: none)
  double cluster_gain = 0;  // a cluster's waves at k >= 2 take P^-cluster_gain of the formula's time (0: no gain)
  double partial_col_stream = 0;  // share of a partial kernel's column parameters read at its streamed
                                  // rate, one element's round trip per element (0: all at the L2's col_gbps)
  double partial_probe_power = 0;  // a partial kernel's time times (probe measured / predicted)^power, the
                                   // calibration's kernel probe of that workload and schedule (0: no probe)
  double register_probe_power = 0;  // the same for a register-resident kernel and its probe (0: no probe)
  double cluster_probe_power = 0;  // the same for the clustered kernel (slices in shared memory) and its
                                   // probe (0: no probe)
  double first_wave_serial_share = 0;  // share of the shorter of memory and SM work a first wave of a staging
                                       // or re-reading kernel adds (0: none)
  double staging_exposed_share = 1;  // share of the staging cost (staging_us), after the first wave, that
                                     // adds to it; the rest overlaps other CTAs' streams (1: all of it)
  double tail_wave_share = 1;  // the last, partial wave after a full one costs this share of its own formula and
                               // the rest of the full wave's time pro rata (1: its own formula whole)
  double global_exchange_us = 0;  // split_global: a CTA's seat and each stage's row barrier through global memory
  double global_exchange_split_us = 0;  // ... plus this per CTA of the row at each of them: P arrivals on one
                                       // counter, serialised at the L2 (0: no P term)
  double register_probe_wave_power = 0;  // a register kernel's probe factor above 1 weighs (probe waves / waves)^this
                                         // more: an excess of per-element work timed at the probe's few waves is
                                         // hidden by co-resident CTAs' loads over more waves (0: the whole factor)
  std::string fitted_on;
};

// split_global's exchange per stage, and its seat: (L + 1) x (kGlobalExchangeUs + kGlobalExchangeSplitUs x P), fitted
// on a wide-row bench of split_global alone. An a-priori 0.5 us with no P term (two L2 round trips and one for the
// partials) put split_global at 1.30-1.37 of its measured time, rising with P at a given N. The tagged exchange:
// (0.65, 0.0075) us, fitted on an H200 bench of 159 points (2026-12-05; log RMS 0.159 -> 0.084; on a held-out
// wide-row sweep the model's regret 4.48 -> 2.70%).
inline constexpr double kGlobalExchangeUs = 0.65;
inline constexpr double kGlobalExchangeSplitUs = 0.0075;

// The constants once, by name: the JSON reader and writer and the tests walk this table.
// `absent`: what a file written before the constant existed means by leaving it out.
struct TimeModelField {
  enum class Absent { required, value, split_rate };
  using Member = double TimeModelParams::*;  // (a plain declaration draws g++ 12's -Wparentheses)
  const char* name;
  Member member;
  Absent absent;
  double value;  // with Absent::value
  bool rate;     // a rate (GB/s) must be positive; the others non-negative
};
inline constexpr TimeModelField kTimeModelFields[] = {
    {"cta_us", &TimeModelParams::cta_us, TimeModelField::Absent::required, 0, false},
    {"staging_us", &TimeModelParams::staging_us, TimeModelField::Absent::value, 0, false},
    {"stage_us", &TimeModelParams::stage_us, TimeModelField::Absent::required, 0, false},
    {"cluster_us", &TimeModelParams::cluster_us, TimeModelField::Absent::required, 0, false},
    {"barrier_scale", &TimeModelParams::barrier_scale, TimeModelField::Absent::required, 0, false},
    {"split_cta_gbps", &TimeModelParams::split_cta_gbps, TimeModelField::Absent::required, 0, true},
    {"reread_cta_gbps", &TimeModelParams::reread_cta_gbps, TimeModelField::Absent::required, 0, true},
    {"register_cta_gbps", &TimeModelParams::register_cta_gbps, TimeModelField::Absent::split_rate, 0, true},
    {"partial_cta_gbps", &TimeModelParams::partial_cta_gbps, TimeModelField::Absent::split_rate, 0, true},
    {"l2_share", &TimeModelParams::l2_share, TimeModelField::Absent::required, 0, false},
    {"l2_gbps", &TimeModelParams::l2_gbps, TimeModelField::Absent::required, 0, true},
    {"col_gbps", &TimeModelParams::col_gbps, TimeModelField::Absent::value, 1e5, true},
    {"sm_work_scale", &TimeModelParams::sm_work_scale, TimeModelField::Absent::value, 1, false},
    {"serial_share", &TimeModelParams::serial_share, TimeModelField::Absent::value, 0, false},
    {"serial_power", &TimeModelParams::serial_power, TimeModelField::Absent::value, 1, false},
    {"col_exposed_share", &TimeModelParams::col_exposed_share, TimeModelField::Absent::value, 0, false},
    {"col_exposed_power", &TimeModelParams::col_exposed_power, TimeModelField::Absent::value, 1, false},
    {"fixed_exposed_share", &TimeModelParams::fixed_exposed_share, TimeModelField::Absent::value, 1, false},
    {"work_exposed_share", &TimeModelParams::work_exposed_share, TimeModelField::Absent::value, 0, false},
    {"cluster_gain", &TimeModelParams::cluster_gain, TimeModelField::Absent::value, 0, false},
    {"partial_col_stream", &TimeModelParams::partial_col_stream, TimeModelField::Absent::value, 0, false},
    {"partial_probe_power", &TimeModelParams::partial_probe_power, TimeModelField::Absent::value, 0, false},
    {"register_probe_power", &TimeModelParams::register_probe_power, TimeModelField::Absent::value, 0, false},
    {"cluster_probe_power", &TimeModelParams::cluster_probe_power, TimeModelField::Absent::value, 0, false},
    {"first_wave_serial_share", &TimeModelParams::first_wave_serial_share, TimeModelField::Absent::value, 0, false},
    {"staging_exposed_share", &TimeModelParams::staging_exposed_share, TimeModelField::Absent::value, 1, false},
    {"tail_wave_share", &TimeModelParams::tail_wave_share, TimeModelField::Absent::value, 1, false},
    {"global_exchange_us", &TimeModelParams::global_exchange_us, TimeModelField::Absent::value, kGlobalExchangeUs, false},
    {"global_exchange_split_us", &TimeModelParams::global_exchange_split_us, TimeModelField::Absent::value, kGlobalExchangeSplitUs, false},
    {"register_probe_wave_power", &TimeModelParams::register_probe_wave_power, TimeModelField::Absent::value, 0, false},
};

// The constant named `name`, or nullptr.
inline const TimeModelField* find_time_model_field(std::string_view name) {
  for (const auto& f : kTimeModelFields)
    if (name == f.name) return &f;
  return nullptr;
}

// Constants a calibration file may carry for terms this model lacks (docs/decisions/time-model-constants.md). At
// `off` the term adds nothing, so a file holding that value predicts the same here; at any other value the model it
// was fitted with cannot be reproduced, and the reader refuses it. A term's second constant, unused while the first
// is off, reads at any value (`with` names the first), and so does the constant of a schedule this build lacks, which
// no prediction of its schedules reads (`schedule` names it: docs/decisions/split-partial-rejected.md).
struct RemovedTimeModelField {
  const char* name;
  double off;
  const char* with = nullptr;
  const char* schedule = nullptr;
};
inline constexpr RemovedTimeModelField kRemovedTimeModelFields[] = {
    {"col_room_save", 0},
    {"col_l2_share", 0},
    {"col_far_gbps", 0, "col_l2_share"},
    {"stream_plane_power", 0},
    {"lone_plane_power", 0},
    {"split_probe_power", 0},
    {"reread_probe_power", 0},
    {"spread_probe_power", 0},
    {"work_sm_share", 1},
    {"register_first_exposed_share", 1},
    {"cluster_idle_share", 0},
    {"cluster_idle_power", 0, "cluster_idle_share"},
    {"cluster_fill_power", 0},
    {"split_partial_cta_gbps", 0, nullptr, "split_partial"},
};

inline const RemovedTimeModelField* find_removed_time_model_field(std::string_view name) {
  for (const auto& f : kRemovedTimeModelFields)
    if (name == f.name) return &f;
  return nullptr;
}

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

// Outcome of one measured point, as CUTLASS separates failing from being wrong.
enum class Disposition { Passed, Incorrect, Failed, Skipped, NotSupported };

// Points that are measurements of the device rather than of a kernel schedule.
inline constexpr const char* kControlSchedule = "control";  // time_ms: T_ctrl at p
inline constexpr const char* kCopySchedule = "copy";        // a copy of the shape's compulsory bytes
inline constexpr const char* kEmptyKernelSchedule = "empty_kernel";  // ladder floor: launch + sync

// DRAM traffic of one launch of a point's schedule (every kernel it runs, summed), measured by
// Nsight Compute with the L2 emptied before and drained after (traffic/profile_traffic.hpp).
struct DramTraffic {
  double read_bytes = 0;   // dram__bytes_read.sum
  double write_bytes = 0;  // dram__bytes_write.sum
  int kernels = 0;         // kernels the launch ran
};

struct SweepPoint {
  std::string workload;
  long long m = 0;
  long long n = 0;
  std::string schedule;  // "staged", "global_reread", "cluster", "copy", "control", ...
  int p = 1;             // CTAs per row
  Disposition disposition = Disposition::Skipped;
  std::string reason;    // why it was not "passed"
  Stat time_ms;
  double compulsory_bytes = 0;   // bytes the operator must move (reads + writes)
  double traffic_bytes = 0;      // bytes this schedule moves by its own count
  double gbps = 0;               // compulsory_bytes / median time
  double pct_of_copy = 0;        // gbps / copy bandwidth measured in the same run, in percent
  double max_rel_l2_error = 0;   // worst output's ||out - ref|| / ||ref||
  // Seed 001's ladder (kind "ladder": time_ms is host completion time) only.
  std::string submission = "direct";  // "direct" launches or "graph" replay
  std::string variant;                // megakernel barrier and Fig. 6 switches, e.g. "grid+reload_input"
  Stat gpu_time_ms;                   // the same submission timed by CUDA events (runs = 0: not measured)
  // Kernel sweeps: rows (clusters or CTAs of one row) the device holds at once for this point
  // (occupancy API; 0: not recorded), and the median of a second, separate timing pass
  // (0: one pass), from which the noise band is measured.
  long long resident_rows = 0;
  double repeat_ms = 0;
  // bench --traffic, a sweep's "traffic": the measured DRAM bytes (empty: not measured).
  std::optional<DramTraffic> dram;
};

struct PredictionRow {
  int p = 0;
  bool legal = false;
  std::string reason;  // why illegal or rejected
  double waves = 0;
  double t_save_ms = 0, t_ctrl_ms = 0, t_replay_ms = 0, t_dsm_ms = 0, t_deposit_ms = 0;
  double dt_ms = 0;
  bool profitable = false;
};

// One candidate schedule of the time model at a shape: its predicted time and why.
struct CandidateTime {
  std::string schedule;  // "staged", "global_reread", "cluster", ...
  int p = 1;
  bool legal = false;
  std::string reason;       // why not legal
  double t_ms = 0;          // predicted time
  int ctas_per_sm = 0;      // occupancy
  long long resident_rows = 0;
  double waves = 0;
  double hbm_bytes = 0;     // bytes the model sends to DRAM
  double probe_scale = 1;   // the kernel probe's factor on the formula's time (1: none applied)
};

struct Prediction {
  std::string workload;
  std::string model;  // "paper", "refined"
  long long m = 0, n = 0;
  std::string baseline;  // "staged" or "global_reread"
  double t_b_ms = 0;
  std::vector<PredictionRow> rows;
  std::optional<int> best_p;  // empty when no legal P is profitable
  // The time model (model "time") only: every candidate's predicted time and the pick.
  std::vector<CandidateTime> candidates;
  std::string pick_schedule;  // "" when no candidate can run
  int pick_p = 0;
  double pick_ms = 0;
};

struct ResultsFile {
  int schema_version = kSchemaVersion;
  std::string kind;  // "calibration", "prediction", "sweep", "ladder"
  Meta meta;
  DeviceInfo device;
  std::optional<Calibration> calibration;
  std::vector<Prediction> predictions;
  std::vector<SweepPoint> points;
  double copy_gbps = 0;  // copy bandwidth measured in the same run (read + write bytes)
  std::optional<ShapeDraw> draw;  // a sweep of `credit validate`: how its shapes were drawn
};

// Points that were incorrect or failed (the commands exit 1 when there are any).
inline std::size_t failed_points(const ResultsFile& r) {
  std::size_t bad = 0;
  for (const auto& p : r.points) bad += p.disposition == Disposition::Incorrect || p.disposition == Disposition::Failed;
  return bad;
}

}  // namespace credit
