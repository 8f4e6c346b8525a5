// The profitability model (paper Eq. 3-9) against hand-computed numbers.
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "model/profitability.hpp"

using namespace credit;
using namespace credit::model;

#define CHECK_NEAR(a, b) CHECK(std::fabs((a) - (b)) <= 1e-9 * std::max(1.0, std::fabs(b)))

namespace {

// LayerNorm: L = 2, q = {1, 1}, Q = 2, s = 4, b_keep = 4 (x), b_reread = 8 (x read 3 times),
// compulsory = 8 (x in, y out). S_scratch depends on the kernel's scratch layout (checked in
// test_static_figures.cpp); it is pinned to 288 B here so these hand computations stay fixed.
const StaticFigures& layernorm() {
  static const StaticFigures f = [] {
    StaticFigures g = find_workload("layernorm").figures;
    g.s_scratch = 288;
    return g;
  }();
  REQUIRE(f.b_keep == 4);
  REQUIRE(f.b_reread == 8);
  REQUIRE(f.compulsory == 8);
  REQUIRE(f.row_scalar_bytes == 0);
  REQUIRE(f.Q == 2);
  REQUIRE(f.s == 4);
  REQUIRE(f.L == 2);
  return f;
}

// Round numbers: f = 1 GHz, so bytes / (B/cycle) are nanoseconds.
DeviceFigures device() {
  DeviceFigures d;
  d.sm_count = 132;
  d.smem_max = 232448;
  d.f_hz = 1e9;
  d.b_smem_read = 128;
  d.b_smem_write = 128;
  d.b_dsm_write = {{2, 32.0}, {4, 32.0}, {8, 32.0}, {16, 16.0}};
  return d;
}

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no std::invalid_argument thrown)";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const PredictionRow& row_of(const Prediction& p, int cluster) {
  for (const auto& r : p.rows)
    if (r.p == cluster) return r;
  FAIL("no row for P = " << cluster);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("variants are named and parsed", "[model]") {
  CHECK(std::string(variant_name(Variant::Paper)) == "paper");
  CHECK(std::string(variant_name(Variant::Refined)) == "refined");
  CHECK(parse_variant("paper") == Variant::Paper);
  CHECK(parse_variant("refined") == Variant::Refined);
  const std::string msg = message_of([] { parse_variant("best"); });
  CHECK(contains(msg, "best"));
  CHECK(contains(msg, "paper"));
  CHECK(contains(msg, "refined"));
}

TEST_CASE("Eq. 3 legality is exact at S_max", "[model]") {
  const StaticFigures& f = layernorm();
  // ceil(N/P)*4 + 288 <= 232448  <=>  ceil(N/P) <= (232448 - 288)/4 = 58040.
  CHECK(cluster_smem_bytes(f, 58040, 1) == 232448);  // 58040*4 + 288
  CHECK(cluster_legal(f, 58040, 1, 232448));          // exactly S_max: legal
  CHECK_FALSE(cluster_legal(f, 58040, 1, 232447));    // one byte short: illegal
  CHECK(cluster_legal(f, 58040, 1, 232449));
  CHECK(cluster_smem_bytes(f, 58041, 1) == 232452);   // one more element: 4 B over
  CHECK_FALSE(cluster_legal(f, 58041, 1, 232448));
  // P = 4: N = 4*58040 = 232160 fits; N = 232161 has ceil(N/4) = 58041 and does not.
  CHECK(cluster_legal(f, 232160, 4, 232448));
  CHECK_FALSE(cluster_legal(f, 232161, 4, 232448));
  // The CUDA baseline switches to global reread at the same boundary.
  CHECK(baseline_path(f, 58040, 232448) == Baseline::Staged);
  CHECK(baseline_path(f, 58041, 232448) == Baseline::GlobalReread);
  CHECK(std::string(baseline_name(Baseline::Staged)) == "staged");
  CHECK(std::string(baseline_name(Baseline::GlobalReread)) == "global_reread");
}

TEST_CASE("Eq. 4-6 traffic and protocol bytes", "[model]") {
  const StaticFigures& f = layernorm();
  // Global reread, N = 65536: D_fixed = 8N = 524288, D_base = 8N + 8N = 1048576.
  const Traffic g = traffic(f, 65536, Baseline::GlobalReread);
  CHECK_NEAR(g.d_cluster, 524288.0);
  CHECK_NEAR(g.d_base, 1048576.0);
  CHECK_NEAR(g.ceiling, 2.0);
  CHECK_NEAR(g.b_b, 16.0);
  // Staged: nothing re-read, so D_base = D_fixed and b_B = 8.
  CHECK(reread_bytes(f, Baseline::Staged) == 0);
  const Traffic s = traffic(f, 4096, Baseline::Staged);
  CHECK_NEAR(s.d_base, 32768.0);
  CHECK_NEAR(s.ceiling, 1.0);
  CHECK_NEAR(s.b_b, 8.0);
  // P(P-1)*Q*s: P = 4 -> 4*3*2*4 = 96; P = 16 -> 16*15*2*4 = 1920. K = 2L = 4.
  CHECK_NEAR(dsm_write_bytes(f, 4), 96.0);
  CHECK_NEAR(dsm_write_bytes(f, 16), 1920.0);
  CHECK(f.K() == 4);
}

TEST_CASE("paper wave count W = ceil(M / floor(S/P))", "[model]") {
  const DeviceFigures d = device();
  CHECK(waves(Variant::Paper, d, 4096, 2) == 63);    // 66 clusters: 66*62 = 4092 < 4096
  CHECK(waves(Variant::Paper, d, 4096, 4) == 125);   // 33 clusters: 33*124 = 4092 < 4096
  CHECK(waves(Variant::Paper, d, 4096, 8) == 256);   // 16 clusters
  CHECK(waves(Variant::Paper, d, 4096, 16) == 512);  // floor(132/16) = 8 clusters
  CHECK(waves(Variant::Paper, d, 2048, 16) == 256);
  CHECK_THROWS_AS(waves(Variant::Paper, d, 4096, 133), std::invalid_argument);
}

TEST_CASE("refined wave count uses measured max active clusters", "[model]") {
  DeviceFigures d = device();
  // 4-CTA clusters fit on 120 of 132 SMs: 30 clusters; 16-CTA clusters on 112: 7 clusters.
  d.max_active_clusters = {{4, 30}, {16, 7}, {2, 0}};
  CHECK(waves(Variant::Refined, d, 4096, 4) == 137);   // 30*136 = 4080 < 4096; paper: 125
  CHECK(waves(Variant::Refined, d, 4096, 16) == 586);  // 7*585 = 4095 < 4096; paper: 512
  CHECK(waves(Variant::Refined, d, 4096, 8) == 256);   // no figure: the paper's
  CHECK(waves(Variant::Refined, d, 4096, 2) == 63);    // non-positive figure: the paper's
  CHECK(waves(Variant::Paper, d, 4096, 4) == 125);     // the paper ignores the figure

  // The refined W flows into T_replay: 137 * 16384*4 B / (128 B/cycle * 1 GHz) = 0.070144 ms.
  const Prediction p = predict(layernorm(), "layernorm", Variant::Refined, d, 4096, 65536,
                               ShapeTimings{2.0, {{4, 0.3}}}, {4});
  CHECK(p.model == "refined");
  CHECK(row_of(p, 4).waves == 137);
  CHECK_NEAR(row_of(p, 4).t_replay_ms, 0.070144);
}

TEST_CASE("dT changes sign as T_ctrl passes break-even", "[model]") {
  const StaticFigures& f = layernorm();
  const DeviceFigures d = device();
  // M = 4096, N = 65536, P = 4, T_B = 2 ms, global-reread baseline (65536*4+288 > S_max).
  // T_save   = 2 * 8/16                          = 1 ms
  // W        = 125
  // T_replay = 125 * 16384*4 / (128 * 1e9) s     = 0.064 ms
  // T_DSM    = 125 * 3*2*4 / (32 * 1e9) s        = 0.00009375 ms
  // T_SMEM^w = 0.064 ms < T_input = 2 * 65536*4/1048576 = 0.5 ms, so T_deposit = 0.
  // Break-even T_ctrl = 1 - 0.064 - 0.00009375 = 0.93590625 ms.
  const Terms below = evaluate(f, Variant::Paper, d, 4096, 65536, 4, 2.0, 0.9359);
  CHECK(below.waves == 125);
  CHECK_NEAR(below.t_save, 1.0);
  CHECK_NEAR(below.t_replay, 0.064);
  CHECK_NEAR(below.t_dsm, 0.00009375);
  CHECK_NEAR(below.t_smem_w, 0.064);
  CHECK_NEAR(below.t_input, 0.5);
  CHECK(below.t_deposit == 0.0);
  CHECK_NEAR(below.dt, 0.00000625);
  CHECK(below.dt > 0);
  const Terms above = evaluate(f, Variant::Paper, d, 4096, 65536, 4, 2.0, 0.9360);
  CHECK_NEAR(above.dt, -0.00009375);
  CHECK(above.dt < 0);

  const Prediction yes = predict(f, "layernorm", Variant::Paper, d, 4096, 65536,
                                 ShapeTimings{2.0, {{4, 0.9359}}}, {4});
  CHECK(row_of(yes, 4).profitable);
  REQUIRE(yes.best_p.has_value());
  CHECK(*yes.best_p == 4);
  const Prediction no = predict(f, "layernorm", Variant::Paper, d, 4096, 65536,
                                ShapeTimings{2.0, {{4, 0.9360}}}, {4});
  CHECK_FALSE(row_of(no, 4).profitable);
  CHECK_FALSE(no.best_p.has_value());
}

TEST_CASE("predicted P is the argmax of dT over legal P", "[model]") {
  // N = 65536, T_B = 2 ms, T_save = 1 ms for every P (all legal: ceil(N/2)*4+288 = 131360).
  //  P   W    T_replay   T_DSM                         T_ctrl  dT
  //  2   63   0.064512   63*1*8/32 ns  = 0.00001575    0.5     0.43547225
  //  4  125   0.064      0.00009375                    0.3     0.63590625
  //  8  256   0.065536   256*7*8/32 ns = 0.000448      0.4     0.534016
  // 16  512   0.065536   512*15*8/16 ns = 0.00384      0.2     0.730624
  const Prediction p = predict(layernorm(), "layernorm", Variant::Paper, device(), 4096, 65536,
                               ShapeTimings{2.0, {{2, 0.5}, {4, 0.3}, {8, 0.4}, {16, 0.2}}},
                               {2, 4, 8, 16});
  CHECK(p.workload == "layernorm");
  CHECK(p.model == "paper");
  CHECK(p.baseline == "global_reread");
  CHECK(p.m == 4096);
  CHECK(p.n == 65536);
  CHECK(p.t_b_ms == 2.0);
  REQUIRE(p.rows.size() == 4);
  CHECK_NEAR(row_of(p, 2).dt_ms, 0.43547225);
  CHECK_NEAR(row_of(p, 4).dt_ms, 0.63590625);
  CHECK_NEAR(row_of(p, 8).dt_ms, 0.534016);
  CHECK_NEAR(row_of(p, 16).dt_ms, 0.730624);
  for (const auto& r : p.rows) {
    CHECK(r.legal);
    CHECK(r.profitable);
    CHECK(r.reason.empty());
  }
  REQUIRE(p.best_p.has_value());
  CHECK(*p.best_p == 16);
}

TEST_CASE("P = 16, illegal P and P without a control timing", "[model]") {
  // N = 262144, T_B = 8 ms: D_base = 16N = 4194304, T_save = 8 * 8/16 = 4 ms.
  // P = 2: ceil(N/2)*4 + 288 = 524576 > S_max; P = 4: 65536*4 + 288 = 262432 > S_max.
  // P = 8: 32768*4 + 288 = 131360, legal but no T_ctrl.
  // P = 16: W = 512, T_replay = 512 * 16384*4 / 128e9 s = 0.262144 ms,
  //         T_DSM = 512 * 15*2*4 / 16e9 s = 0.00384 ms, T_SMEM^w = 0.262144 ms <
  //         T_input = 8 * 262144*4/4194304 = 2 ms, so dT = 4 - 0.5 - 0.262144 - 0.00384.
  const Prediction p = predict(layernorm(), "layernorm", Variant::Paper, device(), 4096, 262144,
                               ShapeTimings{8.0, {{16, 0.5}}}, {2, 4, 8, 16});
  const PredictionRow& r2 = row_of(p, 2);
  CHECK_FALSE(r2.legal);
  CHECK_FALSE(r2.profitable);
  CHECK(r2.reason == "ceil(N/P)*b_keep + S_scratch = 524576 B > S_max = 232448 B");
  CHECK_FALSE(row_of(p, 4).legal);
  CHECK(contains(row_of(p, 4).reason, "= 262432 B > S_max"));
  const PredictionRow& r8 = row_of(p, 8);
  CHECK(r8.legal);
  CHECK_FALSE(r8.profitable);
  CHECK(contains(r8.reason, "no T_ctrl"));
  const PredictionRow& r16 = row_of(p, 16);
  CHECK(r16.legal);
  CHECK(r16.waves == 512);
  CHECK_NEAR(r16.t_save_ms, 4.0);
  CHECK_NEAR(r16.t_ctrl_ms, 0.5);
  CHECK_NEAR(r16.t_replay_ms, 0.262144);
  CHECK_NEAR(r16.t_dsm_ms, 0.00384);
  CHECK(r16.t_deposit_ms == 0.0);
  CHECK_NEAR(r16.dt_ms, 3.234016);
  CHECK(r16.profitable);
  REQUIRE(p.best_p.has_value());
  CHECK(*p.best_p == 16);
}

TEST_CASE("staged baseline saves nothing in the paper variant", "[model]") {
  // N = 4096: 4096*4 + 288 fits one CTA, so the baseline is staged and b_reread = 0.
  // P = 2: T_replay = 63 * 2048*4 / 128e9 s = 0.004032 ms, T_DSM = 0.00001575 ms,
  // so even with a free control dT = -0.00404775 ms.
  const Prediction p = predict(layernorm(), "layernorm", Variant::Paper, device(), 4096, 4096,
                               ShapeTimings{0.05, {{2, 0.0}, {4, 0.0}}}, {2, 4});
  CHECK(p.baseline == "staged");
  for (const auto& r : p.rows) {
    CHECK(r.legal);
    CHECK(r.t_save_ms == 0.0);
    CHECK(r.dt_ms < 0);
    CHECK_FALSE(r.profitable);
  }
  CHECK_NEAR(row_of(p, 2).dt_ms, -0.00404775);
  CHECK_FALSE(p.best_p.has_value());
}

TEST_CASE("T_deposit charges only the store time the input stream does not hide", "[model]") {
  const StaticFigures& f = layernorm();
  DeviceFigures d = device();
  // N = 65536, P = 4, T_B = 2: T_input = 2 * 65536*4 / 1048576 = 0.5 ms.
  // B_SMEM^w = 128: T_SMEM^w = 125 * 65536 / 128e9 s = 0.064 ms < 0.5, so no deposit.
  CHECK(evaluate(f, Variant::Paper, d, 4096, 65536, 4, 2.0, 0.0).t_deposit == 0.0);
  // B_SMEM^w = 16: T_SMEM^w = 125 * 65536 / 16e9 s = 0.512 ms, so T_deposit = 0.012 ms.
  d.b_smem_write = 16;
  const Terms t = evaluate(f, Variant::Paper, d, 4096, 65536, 4, 2.0, 0.0);
  CHECK_NEAR(t.t_smem_w, 0.512);
  CHECK_NEAR(t.t_deposit, 0.012);
  // dT = 1 - 0 - 0.064 - 0.00009375 - 0.012.
  CHECK_NEAR(t.dt, 0.92390625);

  // The input stream is the retained inputs (b_keep), not all inputs: LARS retains w and g
  // (8 B) of its 12 B of inputs; D_base = (20 + 8) * N, so T_input = T_B * 8/28.
  const StaticFigures& lars = find_workload("lars").figures;
  REQUIRE(lars.b_keep == 8);
  REQUIRE(lars.compulsory == 20);
  REQUIRE(lars.b_reread == 8);
  CHECK(input_bytes_per_elem(lars) == 8.0);
  CHECK_NEAR(evaluate(lars, Variant::Paper, device(), 4096, 65536, 4, 2.8, 0.0).t_input, 0.8);
}

TEST_CASE("structural rules reject by construction", "[model]") {
  for (const auto& w : all_workloads()) {
    INFO(w.name);
    CHECK_FALSE(structural_rejection(w.figures).has_value());
  }
  StaticFigures f = layernorm();
  const std::pair<Structure, const char*> cases[] = {
      {Structure::Elementwise, "elementwise"},
      {Structure::OnePassReduction, "one-pass"},
      {Structure::Scan, "scan"},
      {Structure::Selection, "selection"},
  };
  for (const auto& [structure, word] : cases) {
    f.structure = structure;
    const auto why = structural_rejection(f);
    REQUIRE(why.has_value());
    CHECK(contains(*why, word));
  }
  f.structure = Structure::ReductionReuse;
  f.b_reread = 0;
  REQUIRE(structural_rejection(f).has_value());
  CHECK(contains(*structural_rejection(f), "b_reread = 0"));

  // A scan at a shape that would otherwise win outright: every P is rejected with the reason.
  f = layernorm();
  f.structure = Structure::Scan;
  const Prediction p = predict(f, "scan", Variant::Paper, device(), 4096, 262144,
                               ShapeTimings{100.0, {{8, 0.0}, {16, 0.0}}}, {2, 8, 16});
  CHECK_FALSE(p.best_p.has_value());
  for (const auto& r : p.rows) {
    CHECK_FALSE(r.profitable);
    CHECK(contains(r.reason, "scan"));
  }
  CHECK(contains(row_of(p, 2).reason, "> S_max"));  // still says why P = 2 is illegal
  CHECK(row_of(p, 16).dt_ms > 0);                    // the terms alone would have said yes
}

TEST_CASE("N* is the smallest profitable tested width", "[model]") {
  auto at = [](long long n, std::optional<int> best) {
    Prediction p;
    p.n = n;
    p.best_p = best;
    return p;
  };
  CHECK(n_star({at(4096, {}), at(8192, {}), at(16384, 2), at(32768, 4), at(65536, 8)}) == 16384);
  CHECK(n_star({at(4096, {}), at(8192, 2), at(16384, {}), at(32768, 4)}) == 8192);
  CHECK_FALSE(n_star({at(4096, {}), at(8192, {})}).has_value());
  CHECK_FALSE(n_star({}).has_value());
}

TEST_CASE("device figures from a calibration", "[model]") {
  Calibration c;
  c.device.sm_count = 132;
  c.device.smem_per_block_optin = 232448;
  c.sm_clock_hz = 1.98e9;
  auto stat = [](double median) {
    Stat s;
    s.median = median;
    s.runs = 15;
    return s;
  };
  c.local_read = {{2, stat(120)}, {4, stat(110)}};
  c.local_store = {{4, stat(100)}, {8, stat(90)}};  // no P = 2: the smallest P, 4
  c.remote_store = {{2, stat(25)}, {16, stat(20)}};
  c.max_active_clusters = {{4, 30}};
  const DeviceFigures d = device_figures_from(c);
  CHECK(d.sm_count == 132);
  CHECK(d.smem_max == 232448);
  CHECK(d.f_hz == 1.98e9);
  CHECK(d.b_smem_read == 120.0);
  CHECK(d.b_smem_write == 100.0);
  CHECK(d.b_dsm_write.size() == 2);
  CHECK(d.b_dsm_write.at(16) == 20.0);
  CHECK(d.max_active_clusters.at(4) == 30);

  Calibration no_remote = c;
  no_remote.remote_store.clear();
  CHECK(contains(message_of([&] { device_figures_from(no_remote); }), "remote_store"));
  Calibration no_read = c;
  no_read.local_read.clear();
  CHECK(contains(message_of([&] { device_figures_from(no_read); }), "local_read"));
  Calibration no_clock = c;
  no_clock.sm_clock_hz = 0;
  CHECK(contains(message_of([&] { device_figures_from(no_clock); }), "sm_clock_hz"));
  Calibration no_smem = c;
  no_smem.device.smem_per_block_optin = 0;
  CHECK(contains(message_of([&] { device_figures_from(no_smem); }), "smem_per_block_optin"));

  // A P whose remote-store rate is missing is legal but not evaluated.
  const Prediction p = predict(layernorm(), "layernorm", Variant::Paper, d, 4096, 65536,
                               ShapeTimings{2.0, {{4, 0.1}}}, {4});
  CHECK(row_of(p, 4).legal);
  CHECK_FALSE(row_of(p, 4).profitable);
  CHECK(contains(row_of(p, 4).reason, "B_DSM^w"));
}

TEST_CASE("refined T_save at a staged baseline is the time above the copy floor", "[model]") {
  const StaticFigures& f = layernorm();
  const DeviceFigures d = device();
  // N = 4096 is staged (4096*4 + 288 <= S_max). D_fixed = 8 * 4096 = 32768 B per row; M = 2048
  // rows move 67108864 B; at 4000 GB/s (4e9 B/ms) the floor is 0.016777216 ms, so with
  // T_B = 0.03 ms the refined T_save is 0.013222784 ms; the paper's stays 0.
  CHECK(evaluate(f, Variant::Paper, d, 2048, 4096, 2, 0.03, 0.001, 4000).t_save == 0.0);
  CHECK_NEAR(evaluate(f, Variant::Refined, d, 2048, 4096, 2, 0.03, 0.001, 4000).t_save, 0.013222784);
  CHECK(evaluate(f, Variant::Refined, d, 2048, 4096, 2, 0.03, 0.001, 0).t_save == 0.0);  // no copy figure
  CHECK(evaluate(f, Variant::Refined, d, 2048, 4096, 2, 0.01, 0.001, 4000).t_save == 0.0);  // at the floor
  // A measured copy of the same traffic (0.02 ms, launch and tail included) is the floor first.
  CHECK_NEAR(evaluate(f, Variant::Refined, d, 2048, 4096, 2, 0.03, 0.001, 4000, 0.02).t_save, 0.01);
  // A global-reread shape keeps Eq. 7 in both variants: N = 65536, T_B = 2 ms -> T_save = 1 ms.
  CHECK_NEAR(evaluate(f, Variant::Refined, d, 4096, 65536, 4, 2.0, 0.0, 4000).t_save, 1.0);
}
