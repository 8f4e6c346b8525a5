#pragma once
// The time model's fitted constants (TimeModelParams), the table that names each once (kTimeModelFields), and the
// constants of terms this model lacks that a calibration file may still carry (kRemovedTimeModelFields).
// Units: microseconds and GB/s. Calibration files carry them (calibration/calibration.hpp).
#include <string>
#include <string_view>

namespace credit {

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

}  // namespace credit
