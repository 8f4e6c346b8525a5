#pragma once
// The helpers the time model's tests share (cpu/test_time_model.cpp, test_time_model_spread.cpp,
// test_selection.cpp, test_model_fit.cpp): an H200-like calibration, a sweep point, a prediction's
// candidate, a probe past the launch, one constant's candidate time and a refusal that predates a schedule.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "catch.hpp"
#include "core/prediction.hpp"
#include "core/run_stat.hpp"
#include "core/split.hpp"
#include "core/sweep_point.hpp"
#include "core/workload_registry.hpp"
#include "model/time_model.hpp"
#include "model/time_model_params.hpp"
#include "support/sweep_point.hpp"

namespace credit::test {

inline bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// The candidate of a prediction by schedule and P (the list's order is the traits table's).
inline const CandidateTime& cand(const Prediction& p, const std::string& schedule, int ctas = 1) {
  for (const auto& c : p.candidates)
    if (c.schedule == schedule && c.p == ctas) return c;
  FAIL("no candidate " << schedule << " P=" << ctas);
  throw std::logic_error("unreachable");
}

// An H200-like calibration: 132 SMs, 228 KB per SM, 1 KB reserved per CTA, cluster slots that
// grow with the CTAs per SM as measured (7 clusters of 16 at one CTA per SM), copies of 4.25 TB/s
// plus 4 us, a 380-cycle barrier at 2 GHz.
inline Calibration h200_like() {
  Calibration c;
  c.device.name = "test H200";
  c.device.sm_count = 132;
  c.device.smem_per_sm = 233472;
  c.device.smem_per_block_optin = 232448;
  c.device.l2_bytes = 60 << 20;
  c.sm_clock_hz = 2e9;
  c.limits = {65536, 2048, 32, 1024};
  for (const auto& w : all_workloads())
    for (const char* s : {"staged", "cluster"}) c.kernels.push_back({w.name, s, 256, 40, 0});
  for (const auto& w : all_workloads()) {
    c.kernels.push_back({w.name, "global_reread", 512, 54, 128});
    for (int v = 0; v < kRegisterVariantCount; ++v)
      c.kernels.push_back({w.name, register_kernel_name(v), kRegisterVariants[v].threads, 48, 64});
  }
  for (int p : {2, 4, 8, 16}) {
    const int per_k = p == 2 ? 66 : p == 4 ? 30 : p == 8 ? 15 : 7;
    std::vector<int> v;
    for (int k = 1; k <= 8; ++k) v.push_back(per_k * k);
    c.cluster_slots[p] = v;
    c.barrier[p] = Stat{380, 380, 380, 15};
  }
  for (double b = 1 << 20; b <= double(1 << 30); b *= 4) c.copies.push_back({b, 4e-3 + b / 4.25e12 * 1e3});
  return c;
}

// A probe measured at `factor` of the formula's time past the launch (the copies' intercept, which a
// probe's factor leaves alone).
inline double probe_past_launch(const model::CopyLine& l, double formula_ms, double factor) {
  const double launch = l.launch_us * 1e-3;
  return launch + factor * (formula_ms - launch);
}

// A passed point of a sweep: its median time `ms`, its second pass `repeat` (0: none).
inline SweepPoint point(const std::string& w, long long m, long long n, const std::string& s, int p, double ms,
                        double repeat = 0) {
  SweepPoint pt = sweep_point(w, m, n, s, p, ms);
  pt.repeat_ms = repeat;
  return pt;
}

// The time of a legal candidate of workload w with one constant of prm (`knob`) set, as a function of that value:
// the tests of a single rule's constant compare it at two values, all else equal.
inline auto with_constant(double TimeModelParams::*knob, const Calibration& c, const WorkloadInfo& w, TimeModelParams prm) {
  return [&c, &w, knob, prm](double value, const std::string& s, int p, long long m, long long n) mutable {
    prm.*knob = value;
    const CandidateTime ct = model::candidate_time(w.figures, w.name, c, prm, model::copy_line(c.copies), s, p, m, n);
    REQUIRE(ct.legal);
    return ct;
  };
}

// Whether a calibration of a build before the schedule (h200_like: no resources for it) has it refused at
// 1024 x 2^20, P = 128, with the reason that it predates the schedule, not an error.
inline bool refused_as_predating(const WorkloadInfo& w, const TimeModelParams& prm, const char* schedule) {
  const Calibration old = h200_like();
  const CandidateTime t =
      model::candidate_time(w.figures, w.name, old, prm, model::copy_line(old.copies), schedule, 128, 1024, 1 << 20);
  return !t.legal && t.reason.find("predates") != std::string::npos;
}

}  // namespace credit::test
