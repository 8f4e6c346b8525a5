// The time model's terms of the spread schedules (model/time_model.hpp): split_global's, split_pipelined's
// a-priori one, their lack of a probe, and the resident rows of P CTAs without a cluster.
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

// split_pipelined: an a-priori term, written before the schedule was measured, not a
// candidate. Each property below is one the kernel was built for.
TEST_CASE("split_pipelined's a-priori term: two slices, no seat, its next slice loading under the chain", "[model][time]") {
  Calibration c = h200_like();
  for (const auto& w : all_workloads())
    for (const char* s : {"split_global", "split_pipelined"}) c.kernels.push_back({w.name, s, 256, 64, 0});
  const WorkloadInfo& w = find_workload("softmax_bwd");  // two stages, 8 B kept per element
  const TimeModelParams prm = h200_params();
  const CopyLine l = copy_line(c.copies);
  auto at = [&](const TimeModelParams& q, const char* s, int p, long long m, long long n) {
    return candidate_time(w.figures, w.name, c, q, l, s, p, m, n);
  };
  // Two slices per CTA: 2^20 over 128 CTAs is 2 x 64 KB, one CTA per SM (split_global: three); over 64 it does not
  // fit (split_global's one slice of 128 KB does). Its shared memory is the launcher's (core/split.hpp).
  const CandidateTime p128 = at(prm, "split_pipelined", 128, 1024, 1 << 20);
  REQUIRE(p128.legal);
  CHECK(p128.ctas_per_sm == 1);
  CHECK(p128.resident_rows == 1);
  CHECK(at(prm, "split_global", 128, 1024, 1 << 20).ctas_per_sm == 3);
  CHECK_FALSE(at(prm, "split_pipelined", 64, 1024, 1 << 20).legal);
  CHECK(at(prm, "split_global", 64, 1024, 1 << 20).legal);
  CHECK(p128.hbm_bytes == 1024.0 * w.figures.d_fixed(1 << 20));  // every byte once
  CHECK(p128.t_ms >= l.us(p128.hbm_bytes) * 1e-3);
  // No seat: in one wave of one row the fixed costs add whole, so a microsecond more per exchange costs L
  // microseconds, split_global's L + 1 (memory and work do not depend on it there).
  auto dt = [&](const char* s) {
    TimeModelParams a = prm, b = prm;
    b.global_exchange_us = a.global_exchange_us + 1.0;
    return (at(b, s, 16, 1, 8192).t_ms - at(a, s, 16, 1, 8192).t_ms) * 1e3;
  };
  // (std::abs, not Approx: Catch2 v3, on the GPU machine, spells it Catch::Approx.)
  CHECK(std::abs(dt("split_pipelined") - double(w.figures.L)) < 1e-6);
  CHECK(std::abs(dt("split_global") - double(w.figures.L + 1)) < 1e-6);
  // Where the two hold the same CTAs per SM (small slices, registers bound them), many waves: split_pipelined is
  // faster (no seat, its loads under the chain, no idle DRAM at the exchanges), and never below the copy.
  const CandidateTime sg = at(prm, "split_global", 16, 4096, 8192), sp = at(prm, "split_pipelined", 16, 4096, 8192);
  REQUIRE(sg.legal);
  REQUIRE(sp.legal);
  REQUIRE(sg.ctas_per_sm == sp.ctas_per_sm);
  REQUIRE(sg.waves > 2);
  CHECK(sp.t_ms < sg.t_ms);
  CHECK(sp.t_ms >= l.us(sp.hbm_bytes) * 1e-3);
  // Not a candidate: predict_times never weighs it, and `--schedule` may show it (is_modelled_schedule).
  for (const CandidateTime& x : predict_times(w.figures, w.name, c, prm, 1024, 1 << 20).candidates)
    CHECK(x.schedule != "split_pipelined");
  CHECK(is_modelled_schedule("split_pipelined"));
  CHECK_FALSE(is_candidate_schedule("split_pipelined"));
  // A calibration of a build before it: refused with the reason.
  CHECK(refused_as_predating(w, prm, "split_pipelined"));
}

TEST_CASE("resident rows of P CTAs without a cluster: whole sets of P resident CTAs", "[model][time]") {
  const Calibration c = h200_like();
  CHECK(resident_rows(c, 64, 3, false) == 396 / 64);
  CHECK(resident_rows(c, 128, 1, false) == 1);
  CHECK(resident_rows(c, 256, 1, false) == 0);  // the device holds fewer CTAs than a row needs
  CHECK(resident_rows(c, 16, 1, true) == 7);    // a cluster of 16: the slots table, as before
}

// split_partial: split_global keeping what fits kSplitPartialCtasPerSm CTAs per SM of each
// slice, streaming the rest at every phase: the partial kernels' stream terms with split_global's residency and
// exchange, its streamed part at a rate of its own (split_partial_cta_gbps). Not a candidate:
// `predict --schedule split_partial` shows its term.
TEST_CASE("split_partial's term: split_global's residency and exchange, partial's streamed part", "[model][time]") {
  Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("softmax_bwd");  // two stages, 8 B kept per element
  const TimeModelParams prm = h200_params();
  const CopyLine l = copy_line(c.copies);
  // A calibration written before the schedule: refused with the reason, not a throw.
  const CandidateTime old = candidate_time(w.figures, w.name, c, prm, l, "split_partial", 8, 1024, 1 << 20);
  CHECK_FALSE(old.legal);
  CHECK(old.reason.find("predates this schedule") != std::string::npos);
  for (const auto& x : all_workloads()) {
    c.kernels.push_back({x.name, "split_global", 256, 64, 0});
    c.kernels.push_back({x.name, "split_partial", 256, 64, 0});
  }
  const long long keep = partial_keep_elems(w.figures.b_keep, w.figures.s_scratch, c.device.smem_per_sm,
                                             kSplitPartialCtasPerSm);
  REQUIRE(keep > 0);
  // 2^20 over 8 CTAs: slices of 131072, far more than keep: it keeps `keep` of each, streams the rest again, and
  // runs kSplitPartialCtasPerSm CTAs per SM (64 registers a thread allow 4 x 256 threads).
  const CandidateTime p8 = candidate_time(w.figures, w.name, c, prm, l, "split_partial", 8, 1024, 1 << 20);
  REQUIRE(p8.legal);
  CHECK(p8.ctas_per_sm == kSplitPartialCtasPerSm);
  CHECK(p8.resident_rows == kSplitPartialCtasPerSm * 132 / 8);
  // At least the compulsory bytes from DRAM (the streamed part's re-reads too, where the L2 does not keep them),
  // and no faster than the copy moves them.
  CHECK(p8.hbm_bytes >= 1024.0 * w.figures.d_fixed(1 << 20));
  CHECK(p8.t_ms >= l.us(p8.hbm_bytes) * 1e-3);
  // split_global cannot hold a slice of 131072 x 8 B: split_partial runs where it does not.
  CHECK_FALSE(candidate_time(w.figures, w.name, c, prm, l, "split_global", 8, 1024, 1 << 20).legal);
  // Its P is any spread split, not the largest cluster's alone.
  CHECK(candidate_time(w.figures, w.name, c, prm, l, "split_partial", 32, 1024, 1 << 20).legal);
  // A slice that fits whole at its CTAs per SM is split_global's, said so.
  const CandidateTime whole = candidate_time(w.figures, w.name, c, prm, l, "split_partial", 128, 1024, 65536);
  CHECK_FALSE(whole.legal);
  CHECK(whole.reason.find("fits whole") != std::string::npos);
  // The exchange term is split_global's: a dearer exchange, a longer time.
  auto t = with_constant(&TimeModelParams::global_exchange_us, c, w, prm);
  CHECK(t(2.0, "split_partial", 32, 1024, 1 << 20).t_ms > t(0.5, "split_partial", 32, 1024, 1 << 20).t_ms);
  // Its streamed part at its own rate: a slower stream, a longer time; partial's rate leaves it as it is.
  auto r = with_constant(&TimeModelParams::split_partial_cta_gbps, c, w, prm);
  CHECK(r(2.0, "split_partial", 32, 1024, 1 << 20).t_ms > r(8.0, "split_partial", 32, 1024, 1 << 20).t_ms);
  auto pr = with_constant(&TimeModelParams::partial_cta_gbps, c, w, prm);
  CHECK(pr(2.0, "split_partial", 32, 1024, 1 << 20).t_ms == pr(40.0, "split_partial", 32, 1024, 1 << 20).t_ms);
  // Not a candidate (judged out on a held-out wide-row sweep of the H100): never among predict_times' candidates.
  for (const CandidateTime& x : predict_times(w.figures, w.name, c, prm, 1024, 1 << 20).candidates)
    CHECK(x.schedule != "split_partial");
}

// split_partial takes no probe, as split_global: the partial kernels' power with the clustered kernel's factor put it
// at 1.16 of its measured time (an H100's split-row bench of wide rows).
TEST_CASE("split_partial takes no probe, not the partial kernels' power", "[model][time]") {
  TimeModelParams prm;
  prm.partial_probe_power = 1.0;
  prm.cluster_probe_power = 1.0;
  CHECK(probe_power(&traits_of(Schedule::SplitPartial), prm) == 0);
  CHECK(probe_power(&traits_of(Schedule::SplitGlobal), prm) == 0);
  CHECK(probe_power(&traits_of(Schedule::Partial), prm) == 1.0);
  CHECK(probe_power(&traits_of(Schedule::Cluster), prm) == 1.0);
}
