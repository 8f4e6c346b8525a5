// The time model (model/time_model.hpp) and host occupancy (model/occupancy.hpp) against hand-computed
// numbers: occupancy, resident rows, the copy line, legality, waves, the pick and each term.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "model/occupancy.hpp"
#include "model/time_model.hpp"
#include "support/time_model_fixture.hpp"
#include "sweep/selection.hpp"

using namespace credit;
using namespace credit::model;
using namespace credit::test;

TEST_CASE("host occupancy takes the least of the block, thread, register and shared-memory limits", "[model][time]") {
  const OccupancyLimits lim{65536, 2048, 32, 1024};
  // 256 threads x 40 registers: 40*32 = 1280 per warp, 51 warps fit, 8 warps a CTA: 6 CTAs.
  CHECK(ctas_per_sm(lim, 233472, {"w", "staged", 256, 40, 0}, 0) == 6);
  // 32 registers: 1024 per warp, 64 warps: 8 CTAs, also the thread limit (2048 / 256).
  CHECK(ctas_per_sm(lim, 233472, {"w", "staged", 256, 32, 0}, 0) == 8);
  // Shared memory: 100 KB + 1 KB reserved -> 2 per 228 KB.
  CHECK(ctas_per_sm(lim, 233472, {"w", "staged", 256, 32, 0}, 100 * 1024) == 2);
  // 228 KB - 1 KB reserved is the most one CTA can take; one byte more fits none.
  CHECK(ctas_per_sm(lim, 233472, {"w", "staged", 256, 32, 0}, 232448) == 1);
  CHECK(ctas_per_sm(lim, 233472, {"w", "staged", 256, 32, 0}, 232449) == 0);
  // One warp of 96 registers: 3072 per warp; each quarter of the file holds 5, so 20 (not 21).
  CHECK(ctas_per_sm(lim, 233472, {"w", "one_warp", 32, 96, 0}, 0) == 20);
  // 104 registers: 3328 per warp, 4 per quarter: 16 (the whole file would take 19).
  CHECK(ctas_per_sm(lim, 233472, {"w", "one_warp", 32, 104, 0}, 0) == 16);
  // 512 threads x 54 registers: 1728 per warp -> 9 per quarter, 36 warps, 16 warps a CTA: 2.
  CHECK(ctas_per_sm(lim, 233472, {"w", "global_reread", 512, 54, 128}, 0) == 2);
}

TEST_CASE("resident rows: k CTAs per SM times the SMs, or the measured cluster slots", "[model][time]") {
  const Calibration c = h200_like();
  CHECK(resident_rows(c, 1, 3) == 396);
  CHECK(resident_rows(c, 16, 1) == 7);
  CHECK(resident_rows(c, 16, 5) == 35);
  CHECK(resident_rows(c, 8, 0) == 0);
  CHECK(resident_rows(c, 32, 1) == 0);  // no table for P = 32
  Calibration counted = c;  // clusters counted running on the device take the API's place
  counted.cluster_slots_run[16] = {7, 16, 24};
  CHECK(resident_rows(counted, 16, 2) == 16);
  CHECK(resident_rows(counted, 16, 5) == 24);  // beyond the counted k: its last entry
  CHECK(resident_rows(counted, 8, 2) == 30);   // no count for P = 8: the API's figure
}

TEST_CASE("the copy line recovers bandwidth and launch time", "[model][time]") {
  const CopyLine l = copy_line(h200_like().copies);
  CHECK(std::fabs(l.gbps - 4250) < 1);
  CHECK(std::fabs(l.launch_us - 4) < 0.01);
  CHECK_THROWS_AS(copy_line({{1e6, 1e-3}}), std::invalid_argument);
}

TEST_CASE("the time model: legality, waves, DRAM bytes and the pick", "[model][time]") {
  const Calibration c = h200_like();
  const TimeModelParams prm = h200_params();
  const WorkloadInfo& w = find_workload("wvar_bwd");  // 8 B retained per element
  SECTION("a cluster too small for the row is refused by Eq. 3, a one-CTA staged kernel too") {
    const Prediction p = predict_times(w.figures, w.name, c, prm, 4096, 65536);
    CHECK_FALSE(p.candidates[0].legal);  // staged: 512 KB
    CHECK(cand(p, "staged").reason.find("Eq. 3") != std::string::npos);
    CHECK(cand(p, "global_reread").legal);
    CHECK_FALSE(cand(p, "registers").legal);  // rows of at most 16384
    CHECK(cand(p, "registers").reason.find("at most 16384") != std::string::npos);
    CHECK_FALSE(cand(p, "registers_deep").legal);  // rows of 4097 to 16384
    CHECK(cand(p, "registers_deep").reason.find("4097 to 16384") != std::string::npos);
    CHECK_FALSE(cand(p, "cluster", 2).legal);  // P = 2: 256 KB
    const CandidateTime p4 = cand(p, "cluster", 4);  // 128 KB
    CHECK(p4.legal);
    CHECK(p4.ctas_per_sm == 1);
    CHECK(p4.resident_rows == 30);
    CHECK(p4.waves == std::ceil(4096.0 / 30));
    // A cluster moves only the compulsory bytes.
    CHECK(near(p4.hbm_bytes, 4096.0 * w.figures.d_fixed(65536)));
    CHECK(cand(p, "global_reread").hbm_bytes > p4.hbm_bytes);
  }
  SECTION("the register kernels are candidates up to 16384 and from 4097 to 16384 elements, in the variant that holds the row") {
    const Prediction p = predict_times(w.figures, w.name, c, prm, 4096, 3000);
    const CandidateTime wide = cand(p, "registers");
    CHECK(wide.legal);
    // 3000 elements: the 256 x 4 variant (4096), 48 registers, 256 threads: 5 CTAs per SM.
    CHECK(wide.ctas_per_sm == 5);
    CHECK(near(wide.hbm_bytes, 4096.0 * w.figures.d_fixed(3000)));
    CHECK_FALSE(cand(p, "registers_deep").legal);  // below 4097
    // 256 x 8 at 8192: 5 CTAs per SM, as the wide family's 512 x 4 gets 2.
    const Prediction q = predict_times(w.figures, w.name, c, prm, 4096, 8192);
    CHECK(cand(q, "registers_deep").ctas_per_sm == 5);
    CHECK(cand(q, "registers").ctas_per_sm == 2);
  }
  SECTION("the pick is the fastest legal candidate, and the baseline the faster one-CTA kernel") {
    for (long long n : {2048LL, 32768LL, 262144LL}) {
      const Prediction p = predict_times(w.figures, w.name, c, prm, 1024, n);
      double best = INFINITY, best_one = INFINITY;
      for (const auto& k : p.candidates) {
        if (!k.legal) continue;
        best = std::min(best, k.t_ms);
        if (!is_cluster_candidate(k.schedule)) best_one = std::min(best_one, k.t_ms);
      }
      INFO("N=" << n);
      CHECK(p.pick_ms == best);
      CHECK(p.t_b_ms == best_one);
      CHECK(p.best_p.has_value() == is_cluster_candidate(p.pick_schedule));
    }
  }
  SECTION("partial retention: legal only where the slice does not fit whole at two CTAs per SM") {
    // 228 KB per SM: half, less the runtime's 1 KB and the scratch, in whole vectors of 8 B elements.
    const long long keep = partial_keep_elems(w.figures.b_keep, w.figures.s_scratch, c.device.smem_per_sm);
    CHECK(keep == (233472 / 2 - 1024 - w.figures.s_scratch) / 8 / 4 * 4);
    CHECK(partial_keep_elems(0, 100, 233472) == 0);          // nothing retained: nothing to keep
    CHECK(partial_keep_elems(8, 200000, 233472) == 0);       // scratch beyond the budget
    auto partial = [](const Prediction& p, int P) {
      for (const auto& k : p.candidates)
        if (k.schedule == "partial" && k.p == P) return k;
      FAIL("no partial candidate P=" << P);
      return CandidateTime{};
    };
    const Prediction narrow = predict_times(w.figures, w.name, c, prm, 4096, 131072);
    CHECK_FALSE(partial(narrow, 16).legal);  // 64 KB a CTA: the cluster keeps it whole
    CHECK(partial(narrow, 16).reason.find("fits whole") != std::string::npos);
    const Prediction wide = predict_times(w.figures, w.name, c, prm, 4096, 262144);
    const Prediction wider = predict_times(w.figures, w.name, c, prm, 4096, 1048576);
    const CandidateTime p16 = partial(wide, 16), far = partial(wider, 16);
    REQUIRE(p16.legal);
    REQUIRE(far.legal);
    CHECK(p16.ctas_per_sm == 2);  // its shared memory is sized for two
    CHECK(far.ctas_per_sm == 2);
    // Re-reads: the streamed part of each slice, n - P * keep elements: a little of a
    // 16384-element slice, most of a 65536-element one (too much for the L2 to keep).
    CHECK(p16.hbm_bytes >= 4096.0 * w.figures.d_fixed(262144));
    const double compulsory = 4096.0 * w.figures.d_fixed(1048576);
    CHECK(far.hbm_bytes > compulsory);
    // at most all of the streamed part's re-reads reach DRAM (the L2 keeps some)
    CHECK(far.hbm_bytes <= (compulsory + 4096.0 * double(1048576 - 16 * keep) * w.figures.b_reread) * (1 + 1e-12));
    CHECK(candidate_time(w.figures, w.name, c, prm, copy_line(c.copies), "partial", 8, 4096, 1048576).reason.find(
              "cluster of 16 only") != std::string::npos);
    // partial_one keeps as much as one CTA per SM holds: legal where the cluster of 16 cannot keep
    // the slice whole, streaming less than partial (fewer DRAM bytes where the L2 keeps too little).
    auto one = [](const Prediction& p) {
      for (const auto& k : p.candidates)
        if (k.schedule == "partial_one" && k.p == 16) return k;
      FAIL("no partial_one candidate");
      return CandidateTime{};
    };
    CHECK_FALSE(one(wide).legal);  // 16384 x 8 B a CTA: the cluster of 16 keeps it whole at one CTA per SM
    CHECK(one(wide).reason.find("fits whole at 1 CTA per SM") != std::string::npos);
    const CandidateTime o = one(wider);
    REQUIRE(o.legal);
    CHECK(o.ctas_per_sm == 1);
    CHECK(o.hbm_bytes <= far.hbm_bytes);
    CHECK(o.hbm_bytes >= compulsory);
    // Partial is a cluster: the baseline is still the faster one-CTA kernel.
    CHECK(is_cluster_candidate("partial"));
    CHECK_FALSE(is_cluster_candidate("global_reread"));
    CHECK(candidate_label("partial", 16) == "partial P=16");
  }
  SECTION("time grows with the rows and never falls below the copy of the compulsory bytes") {
    const CopyLine l = copy_line(c.copies);
    for (long long m : {1LL, 64LL, 4096LL}) {
      const Prediction a = predict_times(w.figures, w.name, c, prm, m, 131072);
      const Prediction b = predict_times(w.figures, w.name, c, prm, 2 * m, 131072);
      CHECK(b.pick_ms >= a.pick_ms);
      CHECK(a.pick_ms * 1e3 >= l.launch_us + m * w.figures.d_fixed(131072) / (l.gbps * 1e3));
    }
  }
  SECTION("a calibration from before the register kernels: those candidates are refused, the rest predicted") {
    Calibration old = c;
    std::erase_if(old.kernels, [](const KernelResources& k) { return k.schedule.rfind("registers", 0) == 0; });
    const Prediction p = predict_times(w.figures, w.name, old, prm, 1024, 6000);
    for (const char* s : {"registers", "registers_deep"}) {
      CHECK_FALSE(cand(p, s).legal);
      CHECK(cand(p, s).reason.find("predates") != std::string::npos);
    }
    CHECK(cand(p, "staged").legal);
    CHECK_FALSE(p.pick_schedule.empty());
  }
  SECTION("a calibration from before the deep register variants: only those are refused") {
    Calibration old = c;
    std::erase_if(old.kernels, [](const KernelResources& k) { return k.schedule.find("x8") != std::string::npos; });
    const Prediction p = predict_times(w.figures, w.name, old, prm, 1024, 6000);
    CHECK(cand(p, "registers").legal);
    CHECK_FALSE(cand(p, "registers_deep").legal);
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(predict_times(w.figures, w.name, c, prm, 0, 4096), std::invalid_argument);
    Calibration no_kernels = c;
    no_kernels.kernels.clear();
    CHECK_THROWS_AS(candidate_time(w.figures, w.name, no_kernels, prm, copy_line(c.copies), "staged", 1, 64, 4096),
                    std::invalid_argument);
    try {
      predict_times(w.figures, w.name, no_kernels, prm, 64, 4096);
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("no time model inputs") != std::string::npos);
    }
  }
}

TEST_CASE("memory and SM work: a lone CTA per SM leaves serial_share of the shorter exposed, k CTAs k^-power of it",
          "[model][time]") {
  Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("quant_int8");
  c.elem_ns[w.name] = 0.15;  // SM work about as long as the DRAM time, as measured on the H200
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  prm.work_exposed_share = 0;  // its own test below: it shares serial_power
  long long m = 4096;
  auto t = [&](double share, double power, const std::string& s, int p, long long n) {
    prm.serial_share = share;
    prm.serial_power = power;
    return candidate_time(w.figures, w.name, c, prm, l, s, p, m, n);
  };
  // staged at 50000 elements: 200 KB of shared memory, one CTA per SM; cluster P = 4 at 24576: 24 KB each.
  const CandidateTime lone = t(0, 1, "staged", 1, 50000);
  REQUIRE(lone.ctas_per_sm == 1);
  const double lone_exposed = t(0.5, 1, "staged", 1, 50000).t_ms - lone.t_ms;
  CHECK(lone_exposed > 0.05 * lone.t_ms);  // a real share of the time
  CHECK(near(t(0.25, 1, "staged", 1, 50000).t_ms - lone.t_ms, 0.5 * lone_exposed));  // linear in the share
  CHECK(near(t(0.5, 3, "staged", 1, 50000).t_ms - lone.t_ms, lone_exposed));  // 1^power = 1
  m = 3 * t(0, 1, "cluster", 4, 24576).resident_rows;  // full waves only: each runs k CTAs per SM
  const CandidateTime many = t(0, 1, "cluster", 4, 24576);
  REQUIRE(many.ctas_per_sm > 2);
  const double k = many.ctas_per_sm;
  const double many_exposed = t(0.5, 0, "cluster", 4, 24576).t_ms - many.t_ms;
  CHECK(many_exposed > 0);
  CHECK(near(t(0.5, 1, "cluster", 4, 24576).t_ms - many.t_ms, many_exposed / k));
  CHECK(near(t(0.5, 2, "cluster", 4, 24576).t_ms - many.t_ms, many_exposed / (k * k)));
  // A wave of fewer rows than SMs runs one CTA per SM whatever k allows: a lone CTA's share.
  m = 30;
  const CandidateTime few = t(0, 1, "cluster", 4, 24576);
  REQUIRE(few.waves == 1);
  const double few_exposed0 = t(0.5, 0, "cluster", 4, 24576).t_ms - few.t_ms;
  CHECK(few_exposed0 > 0);
  CHECK(near(t(0.5, 2, "cluster", 4, 24576).t_ms - few.t_ms, few_exposed0));  // 30 x 4 CTAs on 132 SMs: k' = 1
  m = 4096;
  // Without a probe there is no SM work, and nothing to expose.
  c.elem_ns.clear();
  CHECK(near(t(0.5, 1, "staged", 1, 50000).t_ms, t(0, 1, "staged", 1, 50000).t_ms));
}

TEST_CASE("SM work: work_exposed_share of a CTA's own work adds to the wave, divided by k^serial_power", "[model][time]") {
  Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("quant_int8");
  c.elem_ns[w.name] = 0.15;
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  prm.serial_power = 2;
  prm.cluster_gain = 0;  // its own test: it scales a cluster's waves
  prm.tail_wave_share = 1;  // likewise: it weighs the last wave apart
  long long m = 4096;
  auto t = [&](double share, const std::string& s, int p, long long n) {
    prm.work_exposed_share = share;
    return candidate_time(w.figures, w.name, c, prm, l, s, p, m, n);
  };
  // The busiest SM's work per wave, us: k' CTAs of N / P elements at elem_ns each (time_model.hpp).
  auto work_us = [&](double k, int p, long long n) { return prm.sm_work_scale * k * double(n) / p * 0.15e-3; };
  // A lone CTA per SM (staged, 50000 elements): the share of its work, in every wave.
  const CandidateTime lone = t(0, "staged", 1, 50000);
  REQUIRE(lone.ctas_per_sm == 1);
  CHECK(near((t(0.4, "staged", 1, 50000).t_ms - lone.t_ms) * 1e3, lone.waves * 0.4 * work_us(1, 1, 50000)));
  // Full waves of k CTAs per SM: share / k^2 of k CTAs' work.
  m = 3 * t(0, "cluster", 4, 24576).resident_rows;
  const CandidateTime many = t(0, "cluster", 4, 24576);
  const double k = many.ctas_per_sm;
  REQUIRE(k > 2);
  CHECK(near((t(0.4, "cluster", 4, 24576).t_ms - many.t_ms) * 1e3, 3 * 0.4 / (k * k) * work_us(k, 4, 24576)));
  // Without a probe there is no SM work to expose.
  c.elem_ns.clear();
  CHECK(t(0.4, "staged", 1, 50000).t_ms == t(0, "staged", 1, 50000).t_ms);
}

TEST_CASE("cluster_gain: a cluster's waves at two or more CTAs per SM take P^-cluster_gain of their time, others none", "[model][time]") {
  const Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("softmax_bwd");
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](double gain, const std::string& s, int p, long long n) {
    prm.cluster_gain = gain;
    return candidate_time(w.figures, w.name, c, prm, l, s, p, 4096, n);
  };
  for (int p : {2, 4, 8, 16}) {
    const double plain = t(0, "cluster", p, 16384).t_ms * 1e3 - l.launch_us;  // the waves, us
    REQUIRE(plain > 0);
    REQUIRE(t(0, "cluster", p, 16384).ctas_per_sm >= 2);
    CHECK(near(t(0.05, "cluster", p, 16384).t_ms * 1e3 - l.launch_us, plain * std::pow(double(p), -0.05)));
  }
  const CandidateTime partial = t(0, "partial", 16, 600000);  // two CTAs per SM: a clustered launch too
  REQUIRE(partial.ctas_per_sm == 2);
  CHECK(t(0.05, "partial", 16, 600000).t_ms < partial.t_ms);
  const CandidateTime lone = t(0, "partial_one", 16, 600000);  // one CTA per SM: no gain
  REQUIRE(lone.ctas_per_sm == 1);
  CHECK(t(0.05, "partial_one", 16, 600000).t_ms == lone.t_ms);
  for (const char* s : {"staged", "global_reread", "registers"})
    CHECK(t(0.05, s, 1, 4096).t_ms == t(0, s, 1, 4096).t_ms);
}

TEST_CASE("partial_col_stream: a partial kernel's column parameters at its streamed rate, per element", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  prm.cluster_gain = 0;
  auto t = [&](const char* wn, double share, const std::string& s, int p, long long n) {
    prm.partial_col_stream = share;
    return candidate_time(find_workload(wn).figures, wn, c, prm, l, s, p, 1024, n);
  };
  // Layernorm (gamma and beta) and rmsnorm (gamma) at 1000000 (a slice of 250 KB, so partial_one is
  // legal too): the partial kernels get slower with the share, by the same time per element whatever
  // the vectors, since the streamed rate (about 11 GB/s per CTA) is below col_gbps (75 per CTA).
  for (const char* s : {"partial", "partial_one"}) {
    REQUIRE(t("layernorm", 0, s, 16, 1000000).legal);
    REQUIRE(t("rmsnorm", 0, s, 16, 1000000).legal);
    const double ln = t("layernorm", 1, s, 16, 1000000).t_ms - t("layernorm", 0, s, 16, 1000000).t_ms;
    const double rn = t("rmsnorm", 1, s, 16, 1000000).t_ms - t("rmsnorm", 0, s, 16, 1000000).t_ms;
    INFO(s << ": layernorm +" << ln << " ms, rmsnorm +" << rn << " ms");
    CHECK(rn > 0);
    CHECK(ln > 0);
    // rmsnorm's one vector cost half of layernorm's two at col_gbps; per element they now cost alike.
    CHECK(t("rmsnorm", 1, s, 16, 1000000).t_ms - t("layernorm", 1, s, 16, 1000000).t_ms >
          t("rmsnorm", 0, s, 16, 1000000).t_ms - t("layernorm", 0, s, 16, 1000000).t_ms);
    // Half the share: between the two.
    const double half = t("layernorm", 0.5, s, 16, 1000000).t_ms;
    CHECK(half > t("layernorm", 0, s, 16, 1000000).t_ms);
    CHECK(half < t("layernorm", 1, s, 16, 1000000).t_ms);
  }
  // Nothing else moves: a workload without column parameters, and the other kernels of layernorm.
  CHECK(t("rms_softmax", 1, "partial", 16, 1000000).t_ms == t("rms_softmax", 0, "partial", 16, 1000000).t_ms);
  for (const auto& [s, p, n] : std::vector<std::tuple<std::string, int, long long>>{
           {"cluster", 16, 262144}, {"global_reread", 1, 1000000}, {"staged", 1, 16384}, {"registers", 1, 4096}})
    CHECK(t("layernorm", 1, s, p, n).t_ms == t("layernorm", 0, s, p, n).t_ms);
}

TEST_CASE("partial_probe_power: a partial kernel scaled by its workload's kernel probe, measured over predicted", "[model][time]") {
  Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](const char* wn, double power, const std::string& s, int p, long long m, long long n) {
    prm.partial_probe_power = power;
    return candidate_time(find_workload(wn).figures, wn, c, prm, l, s, p, m, n);
  };
  // The probe: wvar_bwd's partial_one at 64 x 2^20 measured at 0.8 of the formula's time there past
  // the launch (the copies' intercept, which the factor leaves alone).
  const double launch = l.launch_us * 1e-3;
  REQUIRE(launch > 0);
  const double formula_at_probe = t("wvar_bwd", 0, "partial_one", 16, 64, 1 << 20).t_ms;
  REQUIRE(formula_at_probe > launch);
  c.kernel_probes["wvar_bwd"]["partial_one"] = KernelProbe{64, 1 << 20, probe_past_launch(l, formula_at_probe, 0.8)};
  const CandidateTime none = t("wvar_bwd", 0, "partial_one", 16, 1700, 750000);
  const CandidateTime all = t("wvar_bwd", 1, "partial_one", 16, 1700, 750000);
  const CandidateTime half = t("wvar_bwd", 0.5, "partial_one", 16, 1700, 750000);
  REQUIRE(none.legal);
  CHECK(none.probe_scale == 1);
  CHECK(near(all.probe_scale, 0.8));
  CHECK(near(all.t_ms - launch, 0.8 * (none.t_ms - launch)));
  CHECK(near(half.t_ms - launch, std::sqrt(0.8) * (none.t_ms - launch)));
  // At the probe's own shape the scaled formula gives the probe's time.
  CHECK(near(t("wvar_bwd", 1, "partial_one", 16, 64, 1 << 20).t_ms, c.kernel_probes["wvar_bwd"]["partial_one"].ms));
  // Only that workload's and that schedule's: partial has no probe here, nor has pearson_bwd; the
  // one-CTA and cluster kernels never take one.
  CHECK(t("wvar_bwd", 1, "partial", 16, 1700, 750000).t_ms == t("wvar_bwd", 0, "partial", 16, 1700, 750000).t_ms);
  CHECK(t("pearson_bwd", 1, "partial_one", 16, 1700, 750000).t_ms ==
        t("pearson_bwd", 0, "partial_one", 16, 1700, 750000).t_ms);
  c.kernel_probes["wvar_bwd"]["global_reread"] = KernelProbe{64, 1 << 20, 1e-6};
  c.kernel_probes["wvar_bwd"]["cluster"] = KernelProbe{64, 1 << 20, 1e-6};
  CHECK(t("wvar_bwd", 1, "global_reread", 1, 1700, 750000).t_ms == t("wvar_bwd", 0, "global_reread", 1, 1700, 750000).t_ms);
  CHECK(t("wvar_bwd", 1, "cluster", 16, 1700, 262144).t_ms == t("wvar_bwd", 0, "cluster", 16, 1700, 262144).t_ms);
  // A probe far off the formula is a broken measurement: the factor stays within [1/2, 2].
  c.kernel_probes["wvar_bwd"]["partial_one"].ms = 10 * formula_at_probe;
  CHECK(near(t("wvar_bwd", 1, "partial_one", 16, 1700, 750000).probe_scale, 2.0));
  c.kernel_probes["wvar_bwd"]["partial_one"].ms = 0.01 * formula_at_probe;  // below the launch itself
  CHECK(near(t("wvar_bwd", 1, "partial_one", 16, 1700, 750000).probe_scale, 0.5));
}

TEST_CASE("register_probe_power: a register kernel scaled by its own probe, a partial kernel's power not", "[model][time]") {
  Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](double power, const std::string& s, long long m, long long n) {
    prm.register_probe_power = power;
    return candidate_time(find_workload("layernorm").figures, "layernorm", c, prm, l, s, 1, m, n);
  };
  const double launch = l.launch_us * 1e-3;
  const double at_probe = t(0, "registers", 2048, 8192).t_ms;
  REQUIRE(at_probe > launch);
  c.kernel_probes["layernorm"]["registers"] = KernelProbe{2048, 8192, probe_past_launch(l, at_probe, 0.87)};
  c.kernel_probes["layernorm"]["staged"] = KernelProbe{2048, 8192, 0.5 * at_probe};  // no probe power for staged
  prm.partial_probe_power = 1;  // the partial kernels' power does not apply to the register kernels
  CHECK(t(0, "registers", 650, 11500).t_ms == t(0, "registers", 650, 11500).t_ms);
  CHECK(t(0, "registers", 650, 11500).probe_scale == 1);
  CHECK(near(t(1, "registers", 650, 11500).t_ms - launch, 0.87 * (t(0, "registers", 650, 11500).t_ms - launch)));
  CHECK(t(1, "registers_deep", 650, 11500).probe_scale == 1);  // no probe of that family here
  CHECK(t(1, "staged", 650, 11500).t_ms == t(0, "staged", 650, 11500).t_ms);
}

TEST_CASE("register_probe_power: a register variant's own probe before its family's, and only for that variant", "[model][time]") {
  Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](double power, const std::string& s, long long m, long long n) {
    prm.register_probe_power = power;
    return candidate_time(find_workload("rmsnorm").figures, "rmsnorm", c, prm, l, s, 1, m, n);
  };
  // registers_deep runs 11500 columns as 512 x 8 and 6000 as 256 x 8 (core/split.hpp).
  REQUIRE(kernel_of("registers_deep", 11500) == "registers/512x8");
  REQUIRE(kernel_of("registers_deep", 6000) == "registers/256x8");
  const double deep_16k = t(0, "registers_deep", 2048, 16384).t_ms, deep_8k = t(0, "registers_deep", 2048, 8192).t_ms;
  const double launch = l.launch_us * 1e-3;
  REQUIRE(deep_16k > launch);
  REQUIRE(deep_8k > launch);
  // A family probe (as older calibrations hold) at 8192, and the 512 x 8 variant's own.
  c.kernel_probes["rmsnorm"]["registers_deep"] = KernelProbe{2048, 8192, probe_past_launch(l, deep_8k, 0.9)};
  CHECK(near(t(1, "registers_deep", 130, 11500).probe_scale, 0.9));  // only the family's: it serves every variant
  c.kernel_probes["rmsnorm"]["registers/512x8"] = KernelProbe{2048, 16384, probe_past_launch(l, deep_16k, 1.2)};
  CHECK(near(t(1, "registers_deep", 130, 11500).probe_scale, 1.2));  // the variant's own wins
  CHECK(near(t(1, "registers_deep", 130, 6000).probe_scale, 0.9));   // 256 x 8 has none of its own
  c.kernel_probes["rmsnorm"]["registers/256x8"] = KernelProbe{2048, 8192, probe_past_launch(l, deep_8k, 0.7)};
  CHECK(near(t(1, "registers_deep", 130, 6000).probe_scale, 0.7));
  CHECK(near(t(1, "registers_deep", 130, 11500).probe_scale, 1.2));
  // The wide family's kernels take neither: 1024 x 4 at 11500 has no probe here.
  CHECK(t(1, "registers", 130, 11500).probe_scale == 1);
}

TEST_CASE("register_probe_wave_power: a register probe's excess weighs less past the probe's waves, its deficit whole", "[model][time]") {
  Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  prm.register_probe_power = 1;
  auto t = [&](double wave_power, long long m) {
    prm.register_probe_wave_power = wave_power;
    return candidate_time(find_workload("quant_int8").figures, "quant_int8", c, prm, l, "registers", 1, m, 4096);
  };
  const std::string variant = kernel_of("registers", 4096);
  const double at_probe = t(0, 2048).t_ms;
  REQUIRE(at_probe > l.launch_us * 1e-3);
  c.kernel_probes["quant_int8"][variant] = KernelProbe{2048, 4096, probe_past_launch(l, at_probe, 1.3)};
  const double probe_waves = t(0, 2048).waves, many_waves = t(0, 16384).waves;
  REQUIRE(many_waves > probe_waves);
  REQUIRE(probe_waves > 0);
  CHECK(near(t(0, 16384).probe_scale, 1.3));  // 0: the whole factor at any M
  CHECK(near(t(0.5, 16384).probe_scale, std::pow(1.3, std::sqrt(probe_waves / many_waves))));
  CHECK(t(0.5, 16384).t_ms < t(0, 16384).t_ms);
  CHECK(near(t(0.5, 2048).probe_scale, 1.3));  // at the probe's own waves, and below them, unchanged
  CHECK(near(t(0.5, 256).probe_scale, 1.3));
  // A factor below 1 (the formula pessimistic there) stays whole at any waves.
  c.kernel_probes["quant_int8"][variant].ms = probe_past_launch(l, at_probe, 0.8);
  CHECK(near(t(0.5, 16384).probe_scale, 0.8));
  // Only the register kernels: the staged kernel's probe is the split power's (0 built in) either way.
  prm.register_probe_wave_power = 0.5;
  const CandidateTime staged = candidate_time(find_workload("quant_int8").figures, "quant_int8", c, prm, l, "staged", 1, 16384, 4096);
  prm.register_probe_wave_power = 0;
  CHECK(staged.t_ms == candidate_time(find_workload("quant_int8").figures, "quant_int8", c, prm, l, "staged", 1, 16384, 4096).t_ms);
}

TEST_CASE("column parameters: the share no other CTA hides adds to the wave, less as CTAs per SM grow", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  long long m = 4096;
  auto t = [&](const WorkloadInfo& w, double share, double power, const std::string& s, int p, long long n) {
    prm.col_exposed_share = share;
    prm.col_exposed_power = power;
    return candidate_time(w.figures, w.name, c, prm, l, s, p, m, n);
  };
  const WorkloadInfo& ln = find_workload("layernorm");  // gamma and beta: 8 B of column parameters per element
  const WorkloadInfo& rs = find_workload("rms_softmax");  // none
  REQUIRE(ln.figures.col_bytes == 8);
  REQUIRE(rs.figures.col_bytes == 0);
  // One CTA's column parameters over a wave, in us (time_model.hpp: N / P * col_bytes / col_rate).
  auto t_col = [&](long long n, int p) { return double(n) * 8 / p / (prm.col_gbps * 1e3); };
  // Nothing changes for a workload without column parameters.
  CHECK(t(rs, 4, 2, "staged", 1, 50000).t_ms == t(rs, 0, 2, "staged", 1, 50000).t_ms);
  // A lone CTA (staged, 200 KB): all of it exposed at share >= 1, at most the whole column time per wave.
  const CandidateTime lone0 = t(ln, 0, 2, "staged", 1, 50000), lone = t(ln, 1, 2, "staged", 1, 50000);
  REQUIRE(lone.ctas_per_sm == 1);
  const double lone_added = (lone.t_ms - lone0.t_ms) * 1e3;
  CHECK(lone_added > 0.2 * lone.waves * t_col(50000, 1));
  CHECK(lone_added <= lone.waves * t_col(50000, 1) * (1 + 1e-9));
  // k CTAs per SM expose at most share / k^power of it: P = 16 at 24576 runs many CTAs per SM.
  m = 3 * t(ln, 0, 2, "cluster", 16, 24576).resident_rows;  // full waves only: each runs k CTAs per SM
  const CandidateTime many0 = t(ln, 0, 2, "cluster", 16, 24576), many = t(ln, 1, 2, "cluster", 16, 24576);
  const double k = many.ctas_per_sm;
  REQUIRE(k >= 4);
  const double many_added = (many.t_ms - many0.t_ms) * 1e3;
  CHECK(many_added > 0);
  CHECK(many_added <= many.waves * t_col(24576, 16) / (k * k) * (1 + 1e-9));
  // Share 0: the form without the term, whatever the power.
  CHECK(t(ln, 0, 5, "cluster", 16, 24576).t_ms == many0.t_ms);
}

TEST_CASE("fixed costs: the first wave pays them in full, later waves fixed_exposed_share of them", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  const WorkloadInfo& w = find_workload("rms_softmax");
  auto t = [&](double share, long long m) {
    prm.fixed_exposed_share = share;
    return candidate_time(w.figures, w.name, c, prm, l, "cluster", 4, m, 24576);
  };
  const long long u = t(1, 4096).resident_rows;
  // One wave: nothing overlaps its fixed costs, whatever the share.
  CHECK(t(0.2, u).t_ms == t(1, u).t_ms);
  // Three full waves: a smaller share takes time off the later two, never more than their fixed costs.
  const double all = t(1, 3 * u).t_ms, part = t(0.2, 3 * u).t_ms;
  CHECK(part < all);
  CHECK(part >= t(0, 3 * u).t_ms);
  CHECK(t(0.2, 3 * u).t_ms < t(0.6, 3 * u).t_ms);
}

TEST_CASE("staging: a one-CTA kernel's later waves expose 1/k' of it at staging_exposed_share 0", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  prm.staging_us = 2.0;  // large beside the waves' streams, so that the term shows
  const WorkloadInfo& w = find_workload("rms_softmax");
  auto t = [&](double share, const char* schedule, int p, long long m, long long n) {
    prm.staging_exposed_share = share;
    return candidate_time(w.figures, w.name, c, prm, l, schedule, p, m, n);
  };
  const CandidateTime one = t(1, "staged", 1, 4096, 8192);
  const long long u = one.resident_rows;
  const double k = one.ctas_per_sm;
  REQUIRE(k >= 2);
  // One wave: its CTAs start together, nothing hides their staging.
  CHECK(t(0, "staged", 1, u, 8192).t_ms == t(1, "staged", 1, u, 8192).t_ms);
  // Three full waves: the later two lose at most (1 - 1/k) of their staging each.
  const double all = t(1, "staged", 1, 3 * u, 8192).t_ms * 1e3, hidden = t(0, "staged", 1, 3 * u, 8192).t_ms * 1e3;
  CHECK(hidden < all);
  CHECK(all - hidden <= 2 * 2.0 * (1 - 1 / k) * (1 + 1e-9));
  CHECK(t(0.5, "staged", 1, 3 * u, 8192).t_ms * 1e3 > hidden);
  // A cluster's CTAs wait for each other: its staging stays as fixed_exposed_share says.
  CHECK(t(0, "cluster", 4, 3 * u, 24576).t_ms == t(1, "cluster", 4, 3 * u, 24576).t_ms);
  // One CTA per SM: no other CTA's stream to hide it under.
  const CandidateTime lone = t(1, "staged", 1, 4096, 40000);
  REQUIRE(lone.ctas_per_sm == 1);
  CHECK(t(0, "staged", 1, 4096, 40000).t_ms == lone.t_ms);
}

TEST_CASE("a stage's reduction costs more in CTAs of more warps", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  const WorkloadInfo& w = find_workload("softmax_bwd");
  auto t = [&](double stage_us, long long n) {
    prm.stage_us = stage_us;
    return candidate_time(w.figures, w.name, c, prm, l, "registers", 1, 64, n).t_ms * 1e3;
  };
  // registers: 256 threads at 4096, 512 at 8192 (core/split.hpp); 64 rows: one wave. L = 2 stages.
  const double added_256 = t(1, 4096) - t(0, 4096), added_512 = t(1, 8192) - t(0, 8192);
  CHECK(near(added_256, 2.0 * 1.0));
  CHECK(near(added_512, 2.0 * 2.0));
}

TEST_CASE("cluster_registers: each CTA streams its slice at split_cta_gbps, so at few rows a larger P is faster", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](const std::string& s, int p, long long m, long long n) {
    const CandidateTime ct = candidate_time(find_workload("rmsnorm").figures, "rmsnorm", c, prm, l, s, p, m, n);
    REQUIRE(ct.legal);
    return ct.t_ms;
  };
  // 4 rows of 65536: one wave at any P, each CTA's chain (its slice at one CTA's rate) bounds it.
  const double p8 = t("cluster_registers", 8, 4, 65536), p16 = t("cluster_registers", 16, 4, 65536);
  const double one_cta = t("registers", 1, 20, 16384);
  prm.split_cta_gbps /= 2;
  const double p8_slow = t("cluster_registers", 8, 4, 65536), p16_slow = t("cluster_registers", 16, 4, 65536);
  CHECK(p8_slow > p8);
  CHECK(p16_slow > p16);
  CHECK(p8_slow - p8 > 1.5 * (p16_slow - p16));  // twice the slice, about twice the chain
  CHECK(t("registers", 1, 20, 16384) == one_cta);  // a one-CTA register kernel keeps register_cta_gbps
  prm.register_cta_gbps /= 1000;  // 100 GB/s: now its chain binds
  CHECK(t("cluster_registers", 8, 4, 65536) == p8_slow);
  CHECK(t("registers", 1, 20, 16384) > one_cta);
}

TEST_CASE("no candidate is predicted faster than the copy of its DRAM bytes, with the cluster gain on cluster_registers", "[model][time]") {
  const Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  const auto& w = find_workload("rmsnorm");
  for (const char* s : {"cluster", "cluster_registers"})
    for (int p : {8, 16})  // slices of 8192 and 4096: both schedules hold them
      for (long long m : {64LL, 4096LL, 65536LL}) {
        INFO(s << " P=" << p << " M=" << m);
        prm.cluster_gain = 0.5;  // an absurd gain: only the floor holds the time up
        const CandidateTime t = candidate_time(w.figures, w.name, c, prm, l, s, p, m, 65536);
        REQUIRE(t.legal);
        CHECK(t.t_ms * 1e3 >= l.launch_us + t.hbm_bytes / (l.gbps * 1e3) - 1e-9);
        prm.cluster_gain = 0;
        const CandidateTime none = candidate_time(w.figures, w.name, c, prm, l, s, p, m, 65536);
        if (none.ctas_per_sm >= 2) CHECK(t.t_ms < none.t_ms);  // the gain applies to both cluster schedules
      }
}

TEST_CASE("cluster_probe_power: the clustered kernel scaled by its own probe, staged and global_reread not", "[model][time]") {
  Calibration c = h200_like();
  const CopyLine l = copy_line(c.copies);
  TimeModelParams prm = h200_params();
  auto t = [&](double cluster_power, const std::string& s, int p, long long m, long long n) {
    prm.cluster_probe_power = cluster_power;
    const CandidateTime ct = candidate_time(find_workload("wvar_bwd").figures, "wvar_bwd", c, prm, l, s, p, m, n);
    REQUIRE(ct.legal);
    return ct;
  };
  for (const auto& [s, p, m, n, factor] : {std::tuple{"staged", 1, 2048LL, 8192LL, 1.2},
                                           std::tuple{"global_reread", 1, 2048LL, 8192LL, 0.8},
                                           std::tuple{"cluster", 4, 1024LL, 32768LL, 0.85}}) {
    const double formula = t(0, s, p, m, n).t_ms;
    c.kernel_probes["wvar_bwd"][s] = KernelProbe{m, n, probe_past_launch(l, formula, factor), p};
  }
  // cluster_probe_power 1: the clustered kernel at every P takes its probe's factor, timed at P = 4.
  for (int p : {2, 4, 8, 16}) CHECK(near(t(1, "cluster", p, 3000, 40000).probe_scale, 0.85));
  // The staged and global_reread kernels' probes scale nothing, whatever the clustered kernel's power.
  for (double power : {0.0, 1.0}) {
    CHECK(t(power, "staged", 1, 3000, 8000).probe_scale == 1);
    CHECK(t(power, "global_reread", 1, 3000, 8000).probe_scale == 1);
  }
  // Half the power: the square root of the factor.
  CHECK(near(t(0.5, "cluster", 8, 3000, 40000).probe_scale, std::sqrt(0.85)));
  // Neither cluster_registers nor partial: their own powers.
  prm.register_probe_power = 0;
  prm.cluster_probe_power = 1;
  CHECK(candidate_time(find_workload("wvar_bwd").figures, "wvar_bwd", c, prm, l, "cluster_registers", 4, 3000, 16000).probe_scale == 1);
  // Another workload has no probes here: its formula alone.
  CHECK(candidate_time(find_workload("rmsnorm").figures, "rmsnorm", c, prm, l, "cluster", 4, 3000, 40000).probe_scale == 1);
}

TEST_CASE("first_wave_serial_share: a first wave of a staging kernel exposes a share of the shorter of memory and work", "[model][time]") {
  Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("rmsnorm");
  c.elem_ns[w.name] = 0.15;  // SM work of the order of the DRAM time
  TimeModelParams prm = h200_params();
  prm.serial_share = 0;  // the later waves' share, apart
  auto t = with_constant(&TimeModelParams::first_wave_serial_share, c, w, prm);
  // One wave of the staged kernel: the share adds, linear in it.
  const CandidateTime one = t(0, "staged", 1, 500, 10000);
  REQUIRE(one.waves == 1);
  const double added = t(0.5, "staged", 1, 500, 10000).t_ms - one.t_ms;
  CHECK(added > 0);
  CHECK(near(t(0.25, "staged", 1, 500, 10000).t_ms - one.t_ms, 0.5 * added));
  // The clustered kernel too; a register kernel not (its loads are in flight before any work).
  CHECK(t(0.5, "cluster", 2, 500, 10000).t_ms > t(0, "cluster", 2, 500, 10000).t_ms);
  CHECK(t(0.5, "registers", 1, 500, 10000).t_ms == t(0, "registers", 1, 500, 10000).t_ms);
  // Only the first wave: at many waves the same share adds what it adds to one.
  const long long u = one.resident_rows;
  const double many_added = t(0.5, "staged", 1, 6 * u, 10000).t_ms - t(0, "staged", 1, 6 * u, 10000).t_ms;
  CHECK(near(many_added, t(0.5, "staged", 1, u, 10000).t_ms - t(0, "staged", 1, u, 10000).t_ms));
  // Without SM work nothing is exposed.
  c.elem_ns.clear();
  CHECK(t(0.5, "staged", 1, 500, 10000).t_ms == t(0, "staged", 1, 500, 10000).t_ms);
}

TEST_CASE("tail_wave_share: a partial last wave after a full one costs a share of its own term, the rest pro rata",
          "[model][time]") {
  const Calibration c = h200_like();
  const WorkloadInfo& w = find_workload("softmax_bwd");
  auto ct = with_constant(&TimeModelParams::tail_wave_share, c, w, h200_params());
  auto t = [&](double share, const std::string& s, int p, long long m, long long n) { return ct(share, s, p, m, n).t_ms; };
  for (const auto& [s, p, n] : {std::tuple{std::string("cluster"), 4, 32768LL}, std::tuple{std::string("staged"), 1, 8192LL}}) {
    INFO(s << " P=" << p);
    const long long u = ct(1, s, p, 1, n).resident_rows;
    REQUIRE(u > 8);
    // Whole waves, and a lone partial wave (no full one before it), are the share's business not at all.
    for (long long m : {u, 3 * u, u / 2}) CHECK(t(0.6, s, p, m, n) == t(1, s, p, m, n));
    // A small tail after a full wave: its own term (whole fixed costs, each CTA's whole chain) exceeds its
    // share of a full wave, so a lower share predicts less, linearly in the share.
    const long long r = u / 8, m = u + r;
    const double own = t(1, s, p, m, n), pro_rata = t(0, s, p, m, n);
    CHECK(pro_rata < own);
    CHECK(std::abs(t(0.6, s, p, m, n) - (0.6 * own + 0.4 * pro_rata)) < 1e-9);
    // Pro rata, the tail adds r/u of a later full wave: the kernel of 2u rows less the kernel of u.
    CHECK(std::abs((pro_rata - t(0, s, p, u, n)) - (t(0, s, p, 2 * u, n) - t(0, s, p, u, n)) * double(r) / double(u)) < 1e-9);
  }
}
