#pragma once
// The time model: the absolute time of every candidate schedule of a workload at M x N, from
// cheap per-device measurements (the calibration: occupancy limits, kernel resources, cluster
// slots, copies, cluster barriers, the per-workload probe) and constants fitted once per device
// (TimeModelParams, `credit fit-model`). The pick is the fastest candidate.
//
// Per candidate (one-CTA staged, global_reread or registers; clustered P):
//   k   CTAs per SM (model/occupancy.hpp: threads, registers, shared memory at this N and P);
//   U   rows held at once: k*S, or the clusters of P resident at k (the GPC layout: counted on the
//       device, else the occupancy API; model/occupancy.hpp);
//   waves of U rows (the last one partial); a wave of n rows, with k' = min(k, ceil(n P / S)) CTAs on
//   its busiest SM (fewer than k when the wave is partial or M is small), takes
//     e * t_fixed + max(memory, work) + s * min(memory, work) + s_w * work + c * t_col, with
//     s      = serial_share / k'^serial_power (plus first_wave_serial_share in the first wave of a kernel
//              that stages or re-reads: its CTAs reach their work together), s_w = work_exposed_share /
//              k'^serial_power (the share of
//              a CTA's own work, h after its last exchange above all, that no load of its SM hides);
//     e      = 1 in the first wave (its CTAs start together), else fixed_exposed_share (later CTAs
//              start as others finish: the rest of their fixed cost overlaps other CTAs' streams), of a
//              one-CTA kernel's staging_us that times 1 - (1 - staging_exposed_share) (1 - 1/k') (the
//              other k' - 1 CTAs' streams hide it; a cluster's CTAs wait for each other at exchanges),
//     t_col  = N / P * col_bytes / col_rate (one CTA's column parameters, read from the L2 by h; a
//              partial kernel's: (1 - x) of that plus x * N / P * 4 B / its streamed rate, one round
//              trip per element however many vectors, x = partial_col_stream),
//     c      = min(1, col_exposed_share / k'^col_exposed_power) (the share of them no other CTA's
//              loads overlap: h runs after the CTA's own loads),
//     memory = max(n * D_hbm / B + n * D_l2 / B_l2,  d_cta / r_cta + (1 - c) * t_col + (1 - e) * t_fixed)
//     work   = sm_work_scale * k' * N / P * probe (the busiest SM's elements)
//   (a lone CTA loads, works, then stores: the CTAs of one SM overlap memory and work, one cannot)
//   where B and the launch time come from the copies (slope and intercept), D_hbm the row's
//   DRAM bytes (compulsory, plus the re-reads the L2 does not keep), D_l2 the re-reads it keeps
//   (global_reread: the whole row's; partial: those of the part of each slice it streams),
//   probe the SMs' ns per element (Calibration::elem_ns), d_cta the bytes one CTA streams, r_cta
//   its stream rate (a one-CTA register kernel's register_cta_gbps; every cluster's, cluster_registers
//   included, split_cta_gbps; partial: the kept part at split_cta_gbps, the streamed part and its re-reads
//   at partial_cta_gbps, the rate of one of two CTAs sharing an SM: k CTAs share 2 x partial_cta_gbps)
//   and col_bytes the column parameters it reads from the L2; and
//     t_fixed = cta_us + L * stage_us * threads / 256 + [staged, cluster] staging_us
//               + [P > 1] (cluster_us * log2(P) / 2 + barrier_scale * K * barrier(P)).
//   split_global (P CTAs per row, no cluster, partials through global memory): the clustered kernel's terms with
//   U = k * S / P rows held at once, no cluster launch, handshake or gain, and (global_exchange_us +
//   global_exchange_split_us * P) * (L + 1) in t_fixed (its seat and a row barrier per stage, P arrivals each),
//   and no probe.
//   T = launch + g * sum over waves (the last, partial one after a full one: tail_wave_share of its own term, the
//   rest a full wave's pro rata), g = P^-cluster_gain for a clustered candidate (cluster_registers too)
//   at k >= 2, else 1;
//   a partial, register or clustered kernel's T - launch then times ((probe - launch) / (T - launch at the probe's
//   shape))^power, its workload's kernel probe (Calibration::kernel_probes: a partial schedule's, a register kernel
//   variant's, else its family's, the clustered kernel's at one P; power partial_probe_power, register_probe_power or
//   cluster_probe_power; the factor held to [1/2, 2]; none where the calibration has no probe of it; the staged and
//   global_reread kernels' probes scale nothing); T is at least the copy of the candidate's DRAM bytes.
// Re-reads stay in the L2 while the rows in flight, U * (re-read width) * b_keep, fit in l2_share of it.
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/prediction.hpp"
#include "core/split.hpp"
#include "core/static_figures.hpp"
#include "credit/schedule.hpp"
#include "model/time_model_params.hpp"

namespace credit::model {

// The model's candidates: the one-CTA schedules, and clusters of these sizes keeping the slice
// whole ("cluster") or in part ("partial", "partial_one").
inline const std::vector<int> kClusterSizes{2, 4, 8, 16};
inline bool is_candidate_schedule(std::string_view s) {
  const ScheduleTraits* t = find_schedule(s);
  return t && t->candidate;
}
// A candidate the model predicts: partial only as the largest cluster (core/split.hpp). With the
// row width n, also no register variant this build lacks (a sweep recorded with an older table); vec is the
// elements of a 16-byte group in the workload's type (4 in f32, 8 in bf16 and fp16).
inline bool is_candidate(std::string_view s, int p, long long n = 0, int vec = SplitPolicy::vec) {
  const ScheduleTraits* t = find_schedule(s);
  if (!t || !t->candidate || !takes_p(t->id, p)) return false;
  return n <= 0 || t->register_family < 0 ||
         register_variant_for(register_width(n, p, vec), RegisterFamily(t->register_family), vec) >= 0;
}
// A sweep's point of `workload` (a typed name's type sets vec) as is_candidate takes it.
inline bool is_candidate_point(std::string_view workload, std::string_view s, int p, long long n) {
  return is_candidate(s, p, n, group_elems_of(element_of_name(workload)));
}
// The CTAs per SM a partial-retention schedule sizes its kept part for; 0 for any other name.
inline int partial_ctas_of(std::string_view s) {
  const ScheduleTraits* t = find_schedule(s);
  return t ? t->partial_ctas : 0;
}
// A schedule the time model has a term for: every candidate, and split_global whether a candidate or not:
// `credit predict --schedule` shows them.
inline bool is_modelled_schedule(std::string_view s) {
  const ScheduleTraits* t = find_schedule(s);
  return t && (t->candidate || t->split == Split::Spread);
}
// A candidate that splits each row over P > 1 CTAs: a cluster's, or (once it is a candidate) split_global's
// without one. The rest run one CTA per row: the baseline a split must beat, what the structural rules leave.
inline bool is_cluster_candidate(const ScheduleTraits* t) { return t && t->candidate && t->split != Split::OneCta; }
inline bool is_cluster_candidate(std::string_view s) { return is_cluster_candidate(find_schedule(s)); }

// Bandwidth (GB/s, bytes read + written) and fixed time (us) of a device-to-device copy: least
// squares over the calibration's copies. Throws std::invalid_argument with fewer than two.
struct CopyLine {
  double gbps = 0;
  double launch_us = 0;
  // The copy of `bytes` (read + written), us: the floor no kernel moving them beats.
  double us(double bytes) const { return launch_us + bytes / (gbps * 1e3); }
};
CopyLine copy_line(const std::vector<CopySample>& copies);

// The constants fitted on the H200 (data/model-fit/h200/, docs/model.md): used when a calibration
// carries none; `credit fit-model` fits a device's own.
TimeModelParams h200_params();
// The constants a calibration carries (fitted on its device), else h200_params().
inline TimeModelParams params_of(const Calibration& cal) { return cal.time_model ? *cal.time_model : h200_params(); }

// Throws std::invalid_argument naming what the calibration lacks (kernel resources of this
// workload, cluster slots, copies, the SM clock) or when M or N is not positive.
credit::Prediction predict_times(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                                 const TimeModelParams& params, long long m, long long n,
                                 const std::vector<int>& ps = kClusterSizes);

// The candidates a prediction ranks fastest: the k fastest, and every other one predicted within
// `band` of the fastest (0.1: 10% slower at most), fastest first; legal ones only, and clusters only
// where the structural rules let the pick be one (as predict_times). What `credit tune` checks and
// times at the shape, keeping the fastest it measures. None for k < 1.
std::vector<CandidateTime> shortlist(const credit::Prediction& pr, const StaticFigures& f, int k, double band);
// How many of `sorted` (times, fastest first) that rule keeps: the first k, and any other within band of the first.
template <class Times>
std::size_t shortlist_size(const Times& sorted, int k, double band) {
  std::size_t keep = 0;
  while (keep < std::size(sorted) && (int(keep) < k || sorted[keep] <= sorted[0] * (1 + band))) ++keep;
  return k < 1 ? 0 : keep;
}
// `credit tune`'s defaults, chosen on the development sweeps (2956 shapes, wide rows and an unseen workload among
// them; H200, 2026-12-03), where the model's pick alone costs up to 25%: the three fastest kept the worst pick within
// 18.8%, the three fastest and those within 10% of the fastest (3.2 candidates a shape on average) within 6.7%.
inline constexpr int kDefaultShortlist = 3;
// The model's error on held-out shapes: its log time per candidate, centred on each shape's candidates,
// scatters by 0.065-0.077 (one standard deviation) at every row range on nine held-out sweeps
// (2026-12-04). A runner-up predicted closer than kDefaultShortlistBand may be the faster.
inline constexpr double kHeldOutScatter = 0.07;
static_assert(kDefaultShortlist >= 2, "predict names the runner-up from the default shortlist");
inline constexpr double kDefaultShortlistBand = 0.10;

// The kernel whose resources (Calibration::kernels) a candidate schedule runs at width n with p CTAs
// per row: the register variant for its slice (register_width), the clustered kernel for partial, else
// the schedule's own. vec: elements per 16-byte group of the workload's type (a variant holds twice the row in bf16).
std::string kernel_of(const std::string& schedule, long long n, int p = 1, int vec = SplitPolicy::vec);

// Whether the calibration carries what the time model predicts from (kernel resources, cluster slots, copies).
inline bool has_time_model_inputs(const Calibration& cal) {
  return !cal.kernels.empty() && !cal.cluster_slots.empty() && cal.copies.size() >= 2;
}

// The power of a schedule's kernel probe (partial, register or clustered; 0 for any other), and whether any
// candidate's is on: then a calibration without the workload's probes predicts it by the formula alone.
double probe_power(const ScheduleTraits* t, const TimeModelParams& prm);
bool uses_kernel_probes(const TimeModelParams& prm);
// Whether the calibration has that kernel's resources for the workload (one written by an older
// build may lack a kernel added since).
bool calibration_covers(const Calibration& cal, const std::string& workload, const std::string& schedule, long long n,
                        int p = 1);

// The predicted time of one candidate (a candidate schedule of the traits table: "staged",
// "global_reread", "registers", "registers_deep", "cluster", "partial", "partial_one" or "cluster_registers"),
// with its kernel probe's factor applied (CandidateTime::probe_scale), and never below the copy of its DRAM
// bytes (the copies' launch plus the bytes at their bandwidth).
CandidateTime candidate_time(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                             const TimeModelParams& params, const CopyLine& copy, const std::string& schedule,
                             int p, long long m, long long n);

}  // namespace credit::model
