#pragma once
// The JSON names of the results records' flat fields, written once: the reader, the writer
// (io/json_records.cpp) and the tests walk these tables instead of listing every field again.
// Doubles are written as numbers (null when not finite); every field listed is required on read.
// Records with nested, optional or derived fields (points, predictions, calibrations) list those
// by hand beside their table.
#include <string>
#include <variant>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/prediction.hpp"
#include "core/run_stat.hpp"
#include "core/sweep_point.hpp"

namespace credit::io {

template <class T>
struct FlatField {
  const char* name;
  std::variant<std::string T::*, int T::*, long T::*, long long T::*, double T::*, bool T::*> member;
};

inline constexpr FlatField<DeviceInfo> kDeviceFields[] = {
    {"name", &DeviceInfo::name},
    {"uuid", &DeviceInfo::uuid},
    {"cc_major", &DeviceInfo::cc_major},
    {"cc_minor", &DeviceInfo::cc_minor},
    {"sm_count", &DeviceInfo::sm_count},
    {"sm_clock_khz", &DeviceInfo::sm_clock_khz},
    {"mem_clock_khz", &DeviceInfo::mem_clock_khz},
    {"mem_bus_width_bits", &DeviceInfo::mem_bus_width_bits},
    {"smem_per_block_optin", &DeviceInfo::smem_per_block_optin},
    {"smem_per_sm", &DeviceInfo::smem_per_sm},
    {"l2_bytes", &DeviceInfo::l2_bytes},
    {"global_mem_bytes", &DeviceInfo::global_mem_bytes},
    {"driver_version", &DeviceInfo::driver_version},
    {"runtime_version", &DeviceInfo::runtime_version},
    {"cluster_launch", &DeviceInfo::cluster_launch},
};

inline constexpr FlatField<Stat> kStatFields[] = {
    {"median", &Stat::median}, {"min", &Stat::min}, {"max", &Stat::max}, {"runs", &Stat::runs}};

inline constexpr FlatField<OccupancyLimits> kLimitFields[] = {
    {"regs_per_sm", &OccupancyLimits::regs_per_sm},
    {"max_threads_per_sm", &OccupancyLimits::max_threads_per_sm},
    {"max_blocks_per_sm", &OccupancyLimits::max_blocks_per_sm},
    {"reserved_smem_per_block", &OccupancyLimits::reserved_smem_per_block},
};

inline constexpr FlatField<KernelResources> kKernelFields[] = {
    {"workload", &KernelResources::workload}, {"schedule", &KernelResources::schedule},
    {"threads", &KernelResources::threads},   {"regs", &KernelResources::regs},
    {"static_smem", &KernelResources::static_smem},
};

// A sweep point's plain fields: required, then optional (absent or null: the default; points
// written before them still read). workload, m, n, disposition, time_ms, gpu_time_ms and dram are
// read by hand beside these (validated, nested or derived).
inline constexpr FlatField<SweepPoint> kPointFields[] = {
    {"schedule", &SweepPoint::schedule},
    {"p", &SweepPoint::p},
    {"reason", &SweepPoint::reason},
    {"compulsory_bytes", &SweepPoint::compulsory_bytes},
    {"traffic_bytes", &SweepPoint::traffic_bytes},
    {"gbps", &SweepPoint::gbps},
    {"pct_of_copy", &SweepPoint::pct_of_copy},
    {"max_rel_l2_error", &SweepPoint::max_rel_l2_error},
};
inline constexpr FlatField<SweepPoint> kPointOptionalFields[] = {
    {"submission", &SweepPoint::submission},
    {"variant", &SweepPoint::variant},
    {"resident_rows", &SweepPoint::resident_rows},
    {"repeat_ms", &SweepPoint::repeat_ms},
};

inline constexpr FlatField<CandidateTime> kCandidateFields[] = {
    {"schedule", &CandidateTime::schedule},
    {"p", &CandidateTime::p},
    {"legal", &CandidateTime::legal},
    {"reason", &CandidateTime::reason},
    {"t_ms", &CandidateTime::t_ms},
    {"ctas_per_sm", &CandidateTime::ctas_per_sm},
    {"resident_rows", &CandidateTime::resident_rows},
    {"waves", &CandidateTime::waves},
    {"hbm_bytes", &CandidateTime::hbm_bytes},
};

inline constexpr FlatField<PredictionRow> kPredictionRowFields[] = {
    {"p", &PredictionRow::p},
    {"legal", &PredictionRow::legal},
    {"reason", &PredictionRow::reason},
    {"waves", &PredictionRow::waves},
    {"t_save_ms", &PredictionRow::t_save_ms},
    {"t_ctrl_ms", &PredictionRow::t_ctrl_ms},
    {"t_replay_ms", &PredictionRow::t_replay_ms},
    {"t_dsm_ms", &PredictionRow::t_dsm_ms},
    {"t_deposit_ms", &PredictionRow::t_deposit_ms},
    {"dt_ms", &PredictionRow::dt_ms},
    {"profitable", &PredictionRow::profitable},
};

}  // namespace credit::io
