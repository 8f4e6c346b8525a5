#include "model/time_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/line_fit.hpp"
#include "core/split.hpp"
#include "model/occupancy.hpp"
#include "model/profitability.hpp"

namespace credit::model {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// Dynamic shared memory of the staged (p = 1) and clustered kernels (Eq. 3's footprint).
long split_smem(const StaticFigures& f, long long n, int p) { return long(cluster_smem_bytes(f, n, p)); }

}  // namespace

CopyLine copy_line(const std::vector<CopySample>& copies) {
  require(copies.size() >= 2, "the calibration has fewer than two copy sizes: run `credit calibrate` again");
  std::vector<double> gb, us;
  for (const auto& c : copies) {
    gb.push_back(c.bytes / 1e9);
    us.push_back(c.ms * 1e3);
  }
  const Line fit = least_squares(gb, us);  // us per GB, us
  require(fit.slope > 0, "the calibration's copies do not grow with size");
  CopyLine l;
  l.gbps = 1e6 / fit.slope;  // GB/s = 1e6 us/s / (us/GB)
  l.launch_us = std::max(0.0, fit.intercept);
  return l;
}

namespace {

// kernel_of with the schedule's traits already looked up (candidate_time runs in the fit's loss).
std::string kernel_named(const ScheduleTraits* t, const std::string& schedule, long long n, int p, int vec) {
  if (t && t->register_family >= 0)
    return register_kernel_name(
        register_variant_for(register_width(n, p, vec), RegisterFamily(t->register_family), vec));
  // partial and partial_one: the clustered kernel streaming part of its slice
  return t && t->split == Split::LargestCluster ? "cluster" : schedule;
}

}  // namespace

std::string kernel_of(const std::string& schedule, long long n, int p, int vec) {
  return kernel_named(find_schedule(schedule), schedule, n, p, vec);
}

bool calibration_covers(const Calibration& cal, const std::string& workload, const std::string& schedule, long long n,
                        int p) {
  return find_kernel(cal, workload, kernel_of(schedule, n, p, group_elems_of(element_of_name(workload)))).has_value();
}

namespace {

// The schedule's kind as the formula's terms tell it apart (a schedule may be none of these: staged).
struct Family {
  bool partial = false;  // partial retention: partial, partial_one
  bool cluster = false;  // the cluster's own terms (launch, DSMEM barriers, gain)
  bool reread = false;   // global_reread
  bool regs = false;     // the register kernels: registers, registers_deep, cluster_registers
  // P CTAs per row without a cluster, partials through global memory (split_global): the clustered kernel's
  // terms, with plain CTAs' residency and a barrier in global memory for the cluster's launch and handshakes.
  bool spread = false;
};

Family family_of(const ScheduleTraits* traits, const std::string& schedule) {
  Family s;
  s.partial = traits && traits->partial_ctas > 0;
  s.cluster = traits && traits->cluster_launch;
  s.reread = schedule == "global_reread";
  s.regs = traits && traits->register_family >= 0;
  s.spread = traits && traits->split == Split::Spread;
  return s;
}

// Why the schedule cannot take this P or row before any kernel is looked up; empty when it can.
std::string shape_refusal(const ScheduleTraits* traits, const Family& s, const std::string& schedule, long long n,
                          int p, long long keep, int vec) {
  const bool fixed_p = traits && traits->split == Split::LargestCluster;  // partial, partial_one
  if (s.partial && ((fixed_p && p != kPartialClusterSize) || keep < 1 || slice_width(n, p, vec) <= keep))
    return fixed_p && p != kPartialClusterSize ? schedule + " runs as a cluster of " + std::to_string(kPartialClusterSize) + " only"
           : keep < 1                          ? schedule + ": nothing to keep in shared memory"
                      : schedule + ": the slice fits whole at " + ctas_per_sm_words(traits->partial_ctas);
  if (s.spread && !takes_p(traits->id, p))
    return schedule + " takes a power of two from 2 to " + std::to_string(kMaxSpreadSplit) + " CTAs per row";
  const auto family = RegisterFamily(s.regs ? traits->register_family : 0);
  if (s.regs && register_variant_for(register_width(n, p, vec), family, vec) < 0)
    return register_width_refusal(register_width(n, p, vec), family, vec);
  return "";
}

// Whether the candidate runs: its shape, its kernel in the calibration, Eq. 3's shared memory and its residency.
// Sets c's CTAs per SM, resident rows and legality, or its reason; returns the kernel's threads per CTA.
int seat(CandidateTime& c, const StaticFigures& f, const std::string& workload, const Calibration& cal,
         const ScheduleTraits* traits, const Family& s, long long n, int p, long long keep, int vec) {
  c.reason = shape_refusal(traits, s, c.schedule, n, p, keep, vec);
  if (!c.reason.empty()) return 0;
  const std::string kernel_name = kernel_named(traits, c.schedule, n, p, vec);
  const auto kernel = find_kernel(cal, workload, kernel_name);
  if (!kernel && (s.regs || s.spread)) {  // a calibration written before the register kernel or split_global existed
    c.reason = "the calibration has no resources for " + kernel_name + " (it predates this " +
               (s.spread ? "schedule: run `credit calibrate` with this build)" : "register kernel)");
    return 0;
  }
  require(kernel.has_value(), "the calibration has no kernel resources for " + workload + " " + kernel_name +
                                  ": run `credit calibrate` with this build");
  const long smem = s.reread || s.regs ? 0
                    : s.partial        ? partial_smem_bytes(keep, f.b_keep, f.s_scratch)
                                       : split_smem(f, n, p);
  if (smem > cal.device.smem_per_block_optin) {
    c.reason = "Eq. 3: ceil(N/P)*b_keep + S_scratch = " + std::to_string(smem) + " B > S_max = " +
               std::to_string(cal.device.smem_per_block_optin) + " B";
    return 0;
  }
  c.ctas_per_sm = ctas_per_sm(cal.limits, cal.device.smem_per_sm, *kernel, smem);
  c.resident_rows = resident_rows(cal, p, c.ctas_per_sm, !s.spread);
  if (c.resident_rows < 1) {
    c.reason = s.cluster ? "the device cannot co-schedule a cluster of " + std::to_string(p) + " CTAs with " +
                               std::to_string(smem) + " B of shared memory each"
               : s.spread ? "the device cannot hold the " + std::to_string(p) + " CTAs of one row at once"
                          : "no CTA fits an SM";
    return 0;
  }
  c.legal = true;
  return kernel->threads;
}

// The bytes of one row: to DRAM (compulsory, plus the re-reads the L2 does not keep), the re-reads the
// L2 keeps, and what one of its P CTAs streams.
struct RowBytes {
  double reread_width = 0;  // the elements read a second time: the row (global_reread), the streamed part (partial)
  double rereads = 0, d_hbm = 0, d_l2 = 0, d_cta = 0;
};

RowBytes row_bytes(const StaticFigures& f, const Calibration& cal, const TimeModelParams& prm, const Family& s,
                   long long n, int p, long long keep, long long resident_rows) {
  const double nd = double(n);
  RowBytes b;
  b.reread_width = s.reread ? nd : s.partial ? double(partial_streamed_elems(n, p, keep)) : 0.0;
  b.rereads = b.reread_width * f.b_reread;
  const double in_flight = double(resident_rows) * b.reread_width * f.b_keep;  // rows whose re-reads are pending
  const double l2_keep = prm.l2_share * double(cal.device.l2_bytes);
  const double kept = in_flight <= 0 ? 1.0 : std::clamp(l2_keep / in_flight, 0.0, 1.0);
  b.d_hbm = f.d_fixed(nd) + b.rereads * (1.0 - kept);
  b.d_l2 = b.rereads * kept;
  b.d_cta = (f.d_fixed(nd) + b.rereads) / double(p);
  return b;
}

// One CTA's chain: the bytes it streams over its own rate (bytes per us).
struct CtaStream {
  double r_stream = 1.0;  // a partial CTA's rate for what it does not keep (1: unused)
  double t_cta = 0;       // its stream's time
};

CtaStream cta_stream(const StaticFigures& f, const TimeModelParams& prm, const Family& s, const RowBytes& b,
                     long long n, int p, int ctas_per_sm) {
  const double nd = double(n);
  // A CTA of a cluster streams its slice at split_cta_gbps whether it keeps it in shared memory or in
  // registers (cluster_registers): at few rows that chain, not DRAM, bounds a wave, so a larger P, with
  // shorter slices, runs faster. (A held-out sweep of 266 shapes with cluster_registers, 2026-12-03: at
  // M = 20 the model without the term picked P = 2 where P = 8 or 16 was fastest,
  // up to 15.5%; a per-schedule rate fitted there gave 20 GB/s, but its regret was flat within 0.2
  // points from 25 to 60 GB/s, so the split kernels' rate is taken, not a new constant.) A one-CTA
  // register kernel keeps its fitted register_cta_gbps (1e5: its chain never bound on the development data).
  const double r_cta =
      (s.reread ? prm.reread_cta_gbps : s.regs && !s.cluster ? prm.register_cta_gbps : prm.split_cta_gbps) * 1e3;
  // A partial CTA streams the part of its slice it does not keep (and its re-reads) at its own rate:
  // partial_cta_gbps is that of one of kPartialCtasPerSm CTAs sharing an SM (the partial schedule);
  // the SM's streamed rate is shared by the CTAs on it, so a lone CTA (partial_one) gets all of it.
  // (Measured on the H200, 1024 x 524288 and 1M, 2026-12-01: a per-CTA rate put partial_one with two or three
  // planes at 1.08-1.19 and 1.63-1.76 of its time, partial at 0.93-1.12.)
  const double streamed = s.partial ? b.reread_width / nd : 0.0;  // share of the row's elements
  // The rate is the same whatever the retained planes a CTA streams (a gain per plane was not adopted:
  // docs/decisions/partial-retention.md).
  CtaStream c;
  c.r_stream =
      s.partial ? prm.partial_cta_gbps * 1e3 * double(kPartialCtasPerSm) / double(std::max(1, ctas_per_sm)) : 1.0;
  c.t_cta = s.partial ? (f.d_fixed(nd) * (1 - streamed) / double(p)) / r_cta +
                            (f.d_fixed(nd) * streamed + b.rereads) / double(p) / c.r_stream
                      : b.d_cta / r_cta;
  return c;
}

// A CTA's fixed costs (us): its start, one CTA reduction per stage (each thread combines every warp's
// partials, so it grows with the warps), the staging setup, and a cluster's launch and barriers or a
// spread row's barriers in global memory.
double fixed_us(const StaticFigures& f, const Calibration& cal, const TimeModelParams& prm, const Family& s,
                int threads, int p, double t_staging) {
  double t_fixed = prm.cta_us + f.L * prm.stage_us * (threads / 256.0) + t_staging;
  if (s.cluster) {  // the cluster's launch and its exchanges' handshakes grow with log2(P) rounds
    const auto bar = cal.barrier.find(p);
    require(bar != cal.barrier.end(), "the calibration has no cluster barrier for P = " + std::to_string(p));
    require(cal.sm_clock_hz > 0, "the calibration's sm_clock_hz is not positive: it times the cluster barrier in cycles");
    // The launch term is whole at any M, where rows fill only part of one wave too (a weight by the part was
    // refused: docs/decisions/wave-terms.md).
    t_fixed += prm.cluster_us * std::log2(double(p)) / 2.0 +
               prm.barrier_scale * f.K() * bar->second.median / cal.sm_clock_hz * 1e6;
  }
  if (s.spread)  // the seat, then one row barrier per stage; P arrivals meet on one counter
    t_fixed += (prm.global_exchange_us + prm.global_exchange_split_us * double(p)) * double(f.L + 1);
  return t_fixed;
}

// Column parameters stream from the L2 into every CTA beside its own bytes. A partial kernel reads
// them in its apply pass over the whole slice, whose loads from global memory run at the CTA's
// streamed rate: partial_col_stream of them cost one element's round trip per element at that rate,
// however many column vectors there are. (Development residuals at N >= 250000, H200, 2026-12-01:
// layernorm's and rmsnorm's partial kernels predicted at 0.70-0.77 of their time, rms_softmax's, the
// same bytes without columns, at 0.89-0.91; the time missing per element the same for layernorm's two
// vectors as for rmsnorm's one, at a per-CTA rate of 13-19 GB/s per 4 B element, the streamed rate's 11-21.
// In bf16 an element is 2 B: taken as the same bytes per element at that rate, not measured apart.)
// Column reads cost the same per byte whatever part of them the L1 or the L2 holds: neither term for that passed
// its rule (docs/decisions/column-parameters.md).
double column_us(const StaticFigures& f, const TimeModelParams& prm, const Family& s, long long n, int p,
                 double r_stream) {
  const double nd = double(n);
  const double elem_bytes = double(element_bytes(f.element));
  const double col_slice = nd * f.col_bytes / double(p);  // the column bytes one CTA reads per row
  const double t_col_l2 = col_slice / (prm.col_gbps * 1e3);
  const double t_col_streamed = nd * elem_bytes / double(p) / r_stream;
  return s.partial && f.col_bytes > 0
             ? (1 - prm.partial_col_stream) * t_col_l2 + prm.partial_col_stream * t_col_streamed
             : t_col_l2;
}

// What a wave's time is made of, fixed for the candidate.
struct WaveTerms {
  int p = 1;
  int ctas_per_sm = 1;
  bool regs = false;     // the register kernels' loads are all in flight before any work
  bool one_cta = false;  // a one-CTA kernel: its staging hides under the other CTAs' streams
  double sms = 0, nd = 0;
  double t_fixed = 0, t_staging = 0, t_cta = 0, t_col = 0;
  double d_hbm = 0, d_l2 = 0, b_hbm = 0, b_l2 = 0;  // a row's bytes and the rates (bytes per us)
  double elem_us = 0;                               // the SMs' own work per element, spread over every SM
};

// Memory and SM work overlap across the CTAs of an SM, not within one: a lone CTA loads, works,
// then stores. The share of the shorter of the two left exposed falls with the CTAs per SM, k:
// serial_share / k^serial_power (measured on the H200: about 0.75 at k = 1, 0.2 at 2, ~0 at 4).
// Column parameters are read in the apply phase, after the CTA's own loads: with few CTAs per
// SM no other CTA's loads run meanwhile, so that share of their time, min(1, col_exposed_share /
// k^col_exposed_power), adds to the wave instead of hiding under the DRAM bound (layernorm at
// N = 230000, P = 4, 8, 16 at k = 1, 2, 3: 1.75x, 1.61x, 1.16x rms_softmax's time for the same bytes).
// A wave of fewer rows than the resident ones (few rows, or the last wave) leaves SMs with fewer
// CTAs than k, at least one: that count, not k, sets what overlaps, and the busiest SM's work.
// The first wave's CTAs start together, so their fixed costs add in full; later waves' CTAs start
// as others finish: fixed_exposed_share of their fixed costs adds, the rest overlaps other CTAs'
// streams (it joins the CTA's own chain). A CTA's own SM work after its last exchange (h: quant_int8's
// division and byte store) runs when its loads are done: at k' CTAs per SM work_exposed_share /
// k'^serial_power of the SM's work adds to the wave (without the term quant_int8 at N >= 90000 was
// predicted 0.72-0.81 of measured at one CTA per SM, 1.05-1.13 at three to five).
double wave_us(const WaveTerms& w, const TimeModelParams& prm, double rows, bool first) {
  const double k_eff = std::clamp(std::ceil(rows * double(w.p) / w.sms), 1.0, double(w.ctas_per_sm));
  const double overlap_k = std::pow(k_eff, prm.serial_power);  // what k' CTAs per SM hide of one's chain
  // A first wave's CTAs start together and reach their SM work together: first_wave_serial_share of the
  // shorter of memory and work adds to it for the kernels that stage or re-read (not the register kernels,
  // whose loads are all in flight before any work). Chosen on held-out sweeps (at 0.25: 1.91 -> 1.74%,
  // 1.56 -> 1.57%, 0.76 -> 0.73%, 1.41 -> 1.22%, 1.51 -> 1.47%, 1.24 -> 0.93%; with the register kernels too,
  // worse) and kept on four others (1.51 -> 1.20%, 0.95 -> 1.09%, 1.68 -> 1.48%, 1.87 -> 1.32%), 2026-12-03.
  const double exp_k = prm.serial_share / overlap_k + (first && !w.regs ? prm.first_wave_serial_share : 0.0);
  const double col_k = std::min(1.0, prm.col_exposed_share / std::pow(k_eff, prm.col_exposed_power));
  // A later wave exposes fixed_exposed_share of its fixed costs, of a one-CTA kernel's staging
  // only 1 - (1 - staging_exposed_share)(1 - 1/k') of that (the other k' - 1 CTAs' streams hide
  // it; a cluster's CTAs wait for each other at their exchanges); the rest joins the CTA's chain.
  const double stage_k = !w.one_cta ? 1.0 : 1.0 - (1.0 - prm.staging_exposed_share) * (1.0 - 1.0 / k_eff);
  const double t_exposed = first ? w.t_fixed : prm.fixed_exposed_share * (w.t_fixed - (1.0 - stage_k) * w.t_staging);
  const double chain_rest = (1 - col_k) * w.t_col + (w.t_fixed - t_exposed);
  const double chain = w.t_cta + chain_rest;
  const double memory = std::max(rows * w.d_hbm / w.b_hbm + rows * w.d_l2 / w.b_l2, chain);
  // The busiest SM's work: its k' CTAs' elements at the probe's rate, which times every SM busy, however few SMs
  // the wave occupies (a part of it shared among them was refused: docs/decisions/wave-terms.md; the lone probe,
  // Calibration::elem_ns_lone, is not used either).
  const double work = prm.sm_work_scale * k_eff * w.sms / double(w.p) * w.nd * w.elem_us;
  const double work_k = prm.work_exposed_share / overlap_k;
  return t_exposed + std::max(memory, work) + exp_k * std::min(memory, work) + work_k * work + col_k * w.t_col;
}

// The waves of m rows, u resident at once. The last, partial wave after a full one: tail_wave_share of its own
// formula (a wave of `rest` rows, each CTA's chain and fixed costs whole) and the rest the full wave's time pro
// rata. Its CTAs start as slots of the wave before free, not after all of them have: they share the SMs with its
// stragglers, so the tail is neither a wave apart nor just its share of one. (On ten held-out sweeps, 2026-12-04:
// clusters at 2-3 waves were predicted 4% slow where the tail held under a quarter of a wave and 5% fast where it
// held over three quarters, centred; 0.6 took the mean regret geomean 1.174 -> 1.097%, better on 10 of 11.)
double waves_us(const WaveTerms& w, const TimeModelParams& prm, long long m, long long u) {
  const long long full = m / u, rest = m % u;
  const double later = full && (full > 1 || rest) ? wave_us(w, prm, double(u), false) : 0.0;  // a full wave after the first
  double t = full ? wave_us(w, prm, double(u), true) + double(full - 1) * later : 0.0;
  if (rest)
    t += full ? prm.tail_wave_share * wave_us(w, prm, double(rest), false) +
                    (1.0 - prm.tail_wave_share) * double(rest) / double(u) * later
              : wave_us(w, prm, double(rest), true);
  return t;
}

// A clustered candidate with two or more CTAs per SM runs its waves in P^-cluster_gain of the
// formula's time. Why, from the residuals of the model without it on the development sweeps (2549 shapes, the
// candidates within 1.3x of each shape's fastest): against the shape's others, clusters at two or
// more CTAs per SM are predicted 1.7% slower per doubling of P, the same sign in every workload and
// at every wave count, and the smaller cluster was picked where a larger one was fastest
// (a held-out sweep's worst shapes); at one CTA per SM they are not. What the formula lacks there is
// not known. With the gain at one CTA per SM too, the wide held-out sweeps lost: partial_one and
// clusters of 16 at one CTA per SM were picked where global_reread wins (rmsnorm 1400 x 880000, 51%).
// Fitted on the clustered kernels that stage their slices (cluster, partial); cluster_registers takes it
// too (its P = 2 was predicted 0.07-0.13 in log time too fast beside P = 16 at four or more waves on two
// held-out sweeps; with the gain three sweeps' regret fell 1.80 -> 1.56%, 1.29 -> 0.78% and 2.17 -> 1.55%, a
// fourth's rose 1.85 -> 1.91%; 2026-12-03). It needs the probe's factor to leave the launch unscaled: scaling
// the launch too took the time below the copy of the compulsory bytes at 64 rows of 131072 (with the factor
// past the launch only, 0.0283 ms against the copy's 0.0205 ms).
double cluster_gain(const TimeModelParams& prm, const Family& s, int p, int ctas_per_sm) {
  return s.cluster && ctas_per_sm >= 2 ? std::pow(double(p), -prm.cluster_gain) : 1.0;
}

// The formula's time of one candidate (the header's sum over waves), before its kernel probe: the launch, then
// the waves, each the larger of DRAM's and the busiest SM's time plus the exposed fixed costs, scaled by the
// cluster's gain.
CandidateTime candidate_formula(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                                const TimeModelParams& prm, const CopyLine& copy, const std::string& schedule,
                                int p, long long m, long long n) {
  require(m > 0 && n > 0, "predict: M and N must be positive");
  CandidateTime c;
  c.schedule = schedule;
  c.p = p;
  const ScheduleTraits* traits = find_schedule(schedule);
  const Family s = family_of(traits, schedule);
  require(s.cluster || s.partial || s.reread || s.regs || s.spread || schedule == "staged",
          "the time model has no schedule '" + schedule + "'");
  // Partial retention keeps `keep` elements of each slice and streams the rest (core/split.hpp), keep
  // sized for the schedule's CTAs per SM (partial: two, partial_one: one), in whole 16-byte groups of the type.
  const int vec = group_elems_of(f.element);  // in bf16: twice the row in a register variant, twice the slice kept
  const int keep_ctas = s.partial ? traits->partial_ctas : 0;
  const long long keep = partial_keep_elems(f.b_keep, f.s_scratch, cal.device.smem_per_sm, keep_ctas, vec);
  const int threads = seat(c, f, workload, cal, traits, s, n, p, keep, vec);
  if (!c.legal) return c;

  const RowBytes b = row_bytes(f, cal, prm, s, n, p, keep, c.resident_rows);
  const CtaStream cta = cta_stream(f, prm, s, b, n, p, c.ctas_per_sm);
  WaveTerms w;
  w.p = p;
  w.ctas_per_sm = c.ctas_per_sm;
  w.regs = s.regs;
  w.one_cta = !(s.cluster || s.partial || s.spread);
  w.sms = double(cal.device.sm_count);
  w.nd = double(n);
  w.d_hbm = b.d_hbm;
  w.d_l2 = b.d_l2;
  w.b_hbm = copy.gbps * 1e3;
  w.b_l2 = prm.l2_gbps * 1e3;
  w.t_cta = cta.t_cta;
  w.t_staging = s.reread || s.regs ? 0.0 : prm.staging_us;  // bulk copies issued, mbarriers set up
  w.t_fixed = fixed_us(f, cal, prm, s, threads, p, w.t_staging);
  w.t_col = column_us(f, prm, s, n, p, cta.r_stream);
  // The SMs' own work per element (the calibration's probe; 0 when it has none): a bound of the
  // whole GPU like DRAM, spread over every SM.
  const auto probe = cal.elem_ns.find(workload);
  w.elem_us = probe == cal.elem_ns.end() ? 0.0 : probe->second * 1e-3 / cal.device.sm_count;
  const long long u = c.resident_rows;  // rows one wave holds (at least 1: checked above)
  const long long full = m / u, rest = m % u;
  const double t_us = copy.launch_us + cluster_gain(prm, s, p, c.ctas_per_sm) * waves_us(w, prm, m, u);
  c.waves = double(full) + (rest ? 1.0 : 0.0);
  c.hbm_bytes = double(m) * b.d_hbm;
  c.t_ms = t_us * 1e-3;
  return c;
}

}  // namespace

// A partial kernel's rate depends on the workload in ways the formula does not follow (the planes it streams, its
// re-reads, its column loads: the development residuals at N >= 930000 put partial_one at 0.78-1.26 of its time by
// workload, partial at 0.89-1.08), and so does a register kernel's (layernorm's at 1.03-1.27, the others' near 1),
// and by variant: the development residuals put rmsnorm's registers_deep at 1.00-1.02 of its time in 256 x 8 (the
// variant its family's probe timed) and 0.82-0.86 in 512 x 8 (2026-12-02). So the calibration times each workload's
// kernels of those schedules once, each register variant apart (Calibration::kernel_probes), and the formula is
// scaled by (measured / predicted)^power at the probe's shape, power partial_probe_power or register_probe_power.
// The clustered kernel has one probe too, at one P, serving every P, at its own power, cluster_probe_power = 1 (on a
// held-out sweep, 2026-12-03: regret 1.44 -> 1.24%): in the residuals of four other held-out sweeps the ratio of
// cluster_registers' time to the clustered kernel's at the same P and 1550 or more rows was predicted
// 10-16% low for the two-plane workloads (softmax_bwd, wvar_bwd, pearson_bwd, add_rmsnorm) and within 6% for
// the one-plane ones, the pattern of the clustered kernel's probe (0.83-0.89 of the formula for the former,
// 0.92-0.97 for the latter).
// The factor scales the time past the launch, and is held to [1/2, 2]: a probe far outside that is a
// broken measurement, not a rate.
// The calibration probes the staged and global_reread kernels too, but nothing scales them: in the residuals of six
// held-out sweeps (2026-12-03) the staged kernel sits at a level per workload the shared constants do not follow
// (-0.04 to -0.12 in log time for layernorm against the register kernels, +0.02 to +0.05 for pearson_bwd and
// wvar_bwd), yet scaling both by their probes raised a held-out sweep's regret (1.29 -> 1.93%), and global_reread's
// alone at power 0.6 the next one's (1.11 -> 1.13%, 2026-12-05). split_global takes no probe either: the clustered
// kernel's factor, the same kernel body, made its exchange fit worse (log RMS 0.354 -> 0.403).
// docs/decisions/kernel-probes.md.
double probe_power(const ScheduleTraits* t, const TimeModelParams& prm) {
  return !t || t->split == Split::Spread ? 0.0
         : t->partial_ctas > 0           ? prm.partial_probe_power
         : t->register_family >= 0       ? prm.register_probe_power
         : t->id == Schedule::Cluster    ? prm.cluster_probe_power
                                         : 0.0;
}

bool uses_kernel_probes(const TimeModelParams& prm) {
  for (const ScheduleTraits& t : schedule_traits())
    if (t.candidate && probe_power(&t, prm) > 0) return true;
  return false;
}

namespace {

// What no candidate beats: the copy of its DRAM bytes (the copies' launch and bandwidth). The cluster gain
// and a probe's factor below 1 could take a candidate under it where DRAM bounds every wave.
CandidateTime at_least_the_copy(CandidateTime c, const CopyLine& copy) {
  if (c.legal) c.t_ms = std::max(c.t_ms, copy.us(c.hbm_bytes) * 1e-3);
  return c;
}

CandidateTime probed_time(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                          const TimeModelParams& prm, const CopyLine& copy, const std::string& schedule, int p,
                          long long m, long long n) {
  CandidateTime c = candidate_formula(f, workload, cal, prm, copy, schedule, p, m, n);
  const ScheduleTraits* t = find_schedule(schedule);
  const double power = probe_power(t, prm);
  if (!c.legal || power <= 0) return c;
  const auto w = cal.kernel_probes.find(workload);
  if (w == cal.kernel_probes.end()) return c;
  // A register kernel's own variant's probe; else the schedule's (a partial kernel, or a calibration
  // written before 2026-12-02, which probed one variant per register family).
  auto pr = t->register_family >= 0 ? w->second.find(kernel_named(t, schedule, n, p, group_elems_of(f.element))) : w->second.end();
  if (pr == w->second.end()) pr = w->second.find(schedule);
  if (pr == w->second.end() || !(pr->second.ms > 0)) return c;
  const CandidateTime at_probe =
      candidate_formula(f, workload, cal, prm, copy, schedule, pr->second.p > 0 ? pr->second.p : p, pr->second.m,
                        pr->second.n);
  if (!at_probe.legal || !(at_probe.t_ms > 0)) return c;
  // The factor scales the kernel's own time, not the launch both times share (the copies' intercept,
  // about 4 us on the H200: at few rows most of a candidate's time). Scaling the launch too shrank it by
  // a quarter for cluster_registers, whose probe runs at 0.76 of the formula (2026-12-03: the regret of
  // four held-out sweeps fell, 1.57 -> 1.51%, 1.11 -> 0.95%, 1.74 -> 1.68%, 2.58 -> 2.00%; a fifth's rose
  // 1.86 -> 1.87%).
  const double launch_ms = copy.launch_us * 1e-3;
  if (!(at_probe.t_ms > launch_ms)) return c;
  const double factor = std::clamp((pr->second.ms - launch_ms) / (at_probe.t_ms - launch_ms), 0.5, 2.0);
  // A register kernel slower at its probe than the formula (quant_int8's per-element work, timed at 2048 rows)
  // shows that excess at the probe's few waves; over more waves co-resident CTAs' loads hide more of it
  // (7900 x 4050 picked staged at 24% regret on an H100, 10200 x 3725 at 27% on the H200; 2026-12-05). A factor
  // below 1 (the formula pessimistic) is kept whole: weighing it down too cost right verdicts on the development
  // sweeps.
  double weight = power;
  if (t->register_family >= 0 && prm.register_probe_wave_power > 0 && factor > 1 && at_probe.waves > 0 &&
      c.waves > at_probe.waves)
    weight *= std::pow(at_probe.waves / c.waves, prm.register_probe_wave_power);
  c.probe_scale = std::pow(factor, weight);
  c.t_ms = launch_ms + (c.t_ms - launch_ms) * c.probe_scale;
  return c;
}

}  // namespace

CandidateTime candidate_time(const StaticFigures& f, const std::string& workload, const Calibration& cal,
                             const TimeModelParams& prm, const CopyLine& copy, const std::string& schedule,
                             int p, long long m, long long n) {
  return at_least_the_copy(probed_time(f, workload, cal, prm, copy, schedule, p, m, n), copy);
}

}  // namespace credit::model
