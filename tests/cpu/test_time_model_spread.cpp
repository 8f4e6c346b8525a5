// The time model's term of the spread schedule (model/time_model.hpp): split_global's, its lack of a probe, and the
// resident rows of P CTAs without a cluster.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "model/occupancy.hpp"
#include "model/time_model.hpp"
#include "support/time_model_fixture.hpp"

using namespace credit;
using namespace credit::model;
using namespace credit::test;

TEST_CASE("split_global takes no probe: the clustered kernel's, the same kernel body, leaves it the formula", "[model][time]") {
  Calibration c = h200_like();
  for (const auto& w : all_workloads()) c.kernels.push_back({w.name, "split_global", 256, 64, 0});
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  const auto& w = find_workload("rmsnorm");
  auto t = [&](const std::string& s, int p) {
    const CandidateTime ct = candidate_time(w.figures, w.name, c, prm, l, s, p, 1024, 1 << 19);
    REQUIRE(ct.legal);
    return ct;
  };
  const double formula = t("split_global", 64).t_ms;
  // The clustered kernel's probe at 1024 x 32768, P = 4: 1.25 of its formula past the launch.
  prm.cluster_probe_power = 0;
  const double at_probe = candidate_time(w.figures, w.name, c, prm, l, "cluster", 4, 1024, 32768).t_ms;
  c.kernel_probes["rmsnorm"]["cluster"] = KernelProbe{1024, 32768, probe_past_launch(l, at_probe, 1.25), 4};
  prm.cluster_probe_power = 1;
  CHECK(near(t("cluster", 16).probe_scale, 1.25));
  CHECK(t("split_global", 64).probe_scale == 1);
  CHECK(t("split_global", 64).t_ms == formula);
}

// split_global: a term written before the schedule was measured, and a candidate since its measurement.
TEST_CASE("split_global's term: plain CTAs' residency, a global exchange per stage", "[model][time]") {
  Calibration c = h200_like();
  for (const auto& w : all_workloads()) c.kernels.push_back({w.name, "split_global", 256, 64, 0});
  const WorkloadInfo& w = find_workload("softmax_bwd");  // two stages, 8 B kept per element
  const TimeModelParams prm = h200_params();
  CHECK(prm.global_exchange_us == kGlobalExchangeUs);
  CHECK(prm.global_exchange_split_us == kGlobalExchangeSplitUs);
  // The tagged exchange's pair.
  CHECK(kGlobalExchangeUs == 0.65);
  CHECK(kGlobalExchangeSplitUs == 0.0075);
  const CopyLine l = copy_line(c.copies);
  // 2^20 over 64 CTAs: 128 KB each, one per SM: 132 / 64 = 2 rows at once; over 128: 64 KB, three per SM.
  const CandidateTime p64 = candidate_time(w.figures, w.name, c, prm, l, "split_global", 64, 1024, 1 << 20);
  const CandidateTime p128 = candidate_time(w.figures, w.name, c, prm, l, "split_global", 128, 1024, 1 << 20);
  REQUIRE(p64.legal);
  REQUIRE(p128.legal);
  CHECK(p64.ctas_per_sm == 1);
  CHECK(p64.resident_rows == 132 / 64);
  CHECK(p128.ctas_per_sm == 3);
  CHECK(p128.resident_rows == 3 * 132 / 128);
  CHECK(p128.hbm_bytes == 1024.0 * w.figures.d_fixed(1 << 20));  // every byte once: no re-read
  CHECK(p128.t_ms >= l.us(p128.hbm_bytes) * 1e-3);
  // Refused: a slice over S_max, a P not a power of two, more CTAs than the device holds.
  CHECK_FALSE(candidate_time(w.figures, w.name, c, prm, l, "split_global", 32, 1024, 1 << 20).legal);
  CHECK(candidate_time(w.figures, w.name, c, prm, l, "split_global", 48, 1024, 1 << 20).reason.find("power of two") !=
        std::string::npos);
  Calibration small = c;
  small.device.sm_count = 100;  // 2^21 over 128 CTAs: 128 KB each, one per SM: 100 CTAs, fewer than a row's 128
  const CandidateTime too_few = candidate_time(w.figures, w.name, small, prm, l, "split_global", 128, 1024, 1 << 21);
  CHECK_FALSE(too_few.legal);
  CHECK(too_few.reason.find("cannot hold the 128 CTAs") != std::string::npos);
  CHECK(candidate_time(w.figures, w.name, c, prm, l, "split_global", 128, 1024, 1 << 21).legal);  // 132 SMs do
  // The exchange adds (L + 1) x global_exchange_us to every CTA's fixed cost: a larger one, a longer time.
  auto t = with_constant(&TimeModelParams::global_exchange_us, c, w, prm);
  CHECK(t(2.0, "split_global", 128, 1024, 1 << 20).t_ms > t(0.5, "split_global", 128, 1024, 1 << 20).t_ms);
  CHECK(t(2.0, "cluster", 16, 1024, 65536).t_ms == t(0.5, "cluster", 16, 1024, 65536).t_ms);  // no one else's term
  // ... and global_exchange_split_us per CTA of the row at each exchange: it weighs P = 128 more than P = 64, and
  // nothing else.
  auto ts = with_constant(&TimeModelParams::global_exchange_split_us, c, w, prm);
  const double d64 = ts(0.05, "split_global", 64, 1024, 1 << 20).t_ms - ts(0.0, "split_global", 64, 1024, 1 << 20).t_ms;
  const double d128 =
      ts(0.05, "split_global", 128, 1024, 1 << 20).t_ms - ts(0.0, "split_global", 128, 1024, 1 << 20).t_ms;
  CHECK(d64 > 0);
  CHECK(d128 > d64);
  CHECK(ts(0.05, "cluster", 16, 1024, 65536).t_ms == ts(0.0, "cluster", 16, 1024, 65536).t_ms);
  // A candidate: predict_times weighs it at the spread splits that fit (64 and
  // 128 here), and a global exchange too dear to pay (1e6 us) leaves every other candidate's time as it was.
  const Prediction pr = predict_times(w.figures, w.name, c, prm, 1024, 1 << 20);
  CHECK(pr.pick_schedule == "split_global");  // so that the check below, never with 1e6 us, says something
  std::vector<int> sg_ps;
  for (const CandidateTime& x : pr.candidates)
    if (x.schedule == "split_global" && x.legal) sg_ps.push_back(x.p);
  CHECK(sg_ps == std::vector<int>{64, 128});
  TimeModelParams never = prm;
  never.global_exchange_us = 1e6;
  const Prediction pn = predict_times(w.figures, w.name, c, never, 1024, 1 << 20);
  REQUIRE(pn.candidates.size() == pr.candidates.size());
  for (std::size_t i = 0; i < pr.candidates.size(); ++i)
    if (pr.candidates[i].schedule != "split_global") CHECK(pn.candidates[i].t_ms == pr.candidates[i].t_ms);
  CHECK(pn.pick_schedule != "split_global");
  CHECK(is_modelled_schedule("split_global"));
  CHECK_FALSE(is_modelled_schedule("megakernel"));
  // A calibration from before the schedule: refused with the reason, not an error.
  CHECK(refused_as_predating(w, prm, "split_global"));
}

TEST_CASE("resident rows of P CTAs without a cluster: whole sets of P resident CTAs", "[model][time]") {
  const Calibration c = h200_like();
  CHECK(resident_rows(c, 64, 3, false) == 396 / 64);
  CHECK(resident_rows(c, 128, 1, false) == 1);
  CHECK(resident_rows(c, 256, 1, false) == 0);  // the device holds fewer CTAs than a row needs
  CHECK(resident_rows(c, 16, 1, true) == 7);    // a cluster of 16: the slots table, as before
}

TEST_CASE("split_global takes no probe, the partial and clustered kernels their powers", "[model][time]") {
  TimeModelParams prm;
  prm.partial_probe_power = 1.0;
  prm.cluster_probe_power = 1.0;
  CHECK(probe_power(&traits_of(Schedule::SplitGlobal), prm) == 0);
  CHECK(probe_power(&traits_of(Schedule::Partial), prm) == 1.0);
  CHECK(probe_power(&traits_of(Schedule::Cluster), prm) == 1.0);
}
