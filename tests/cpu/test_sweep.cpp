// Sweep configuration files and the sweep summary (measured against predicted profitability).
#include <csignal>
#include <stdexcept>

#include "io/throttled_save.hpp"
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "support/config_files.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_summary.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

fs::path write_temp(const std::string& name, const std::string& text) {
  return test::write_temp("credit-test-sweep", name, text);
}

std::string error_of(const fs::path& p) { return test::config_error(p); }

SweepPoint point(const std::string& schedule, int p, long long n, double ms) {
  SweepPoint pt;
  pt.workload = "wvar_bwd";
  pt.m = 4096;
  pt.n = n;
  pt.schedule = schedule;
  pt.p = p;
  pt.disposition = Disposition::Passed;
  pt.time_ms.median = ms;
  return pt;
}

Prediction prediction(const std::string& model, long long n, std::optional<int> best) {
  Prediction pr;
  pr.workload = "wvar_bwd";
  pr.model = model;
  pr.m = 4096;
  pr.n = n;
  pr.baseline = n <= 16384 ? "staged" : "global_reread";
  pr.best_p = best;
  return pr;
}

}  // namespace

TEST_CASE("the built-in sweep is the paper's", "[sweep]") {
  const SweepConfig c = paper_sweep();
  CHECK(c.workloads.empty());  // all seven
  CHECK(c.widths == std::vector<long long>{4096, 8192, 16384, 32768, 65536});
  CHECK(c.cluster_sizes == std::vector<int>{2, 4, 8, 16});
  CHECK(rows_for(c, "layernorm", 2048) == 2048);
}

TEST_CASE("sweep configs read every field and name the bad one", "[sweep]") {
  const fs::path ok = write_temp("ok.json", R"({"name": "t", "workloads": ["lars"], "widths": [128, 50257],
      "rows": {"lars": 7}, "cluster_sizes": [2, 16], "samples": 3, "warmup": 0})");
  const SweepConfig c = read_sweep_config(ok);
  CHECK(c.name == "t");
  CHECK(c.workloads == std::vector<std::string>{"lars"});
  CHECK(c.widths == std::vector<long long>{128, 50257});
  CHECK(rows_for(c, "lars", 4096) == 7);
  CHECK(c.cluster_sizes == std::vector<int>{2, 16});
  CHECK(c.samples == 3);
  CHECK(c.warmup == 0);

  CHECK(error_of(write_temp("p3.json", R"({"cluster_sizes": [2, 3]})")).find("cluster_sizes[1]") != std::string::npos);
  CHECK(error_of(write_temp("w.json", R"({"workloads": ["nosuch"]})")).find("unknown workload 'nosuch'") !=
        std::string::npos);
  CHECK(error_of(write_temp("n.json", R"({"widths": [4096, -1]})")).find("widths[1]") != std::string::npos);
  CHECK(error_of(write_temp("r.json", R"({"rows": {"lars": 0}})")).find("rows.lars") != std::string::npos);
  const std::string corrupt = error_of(write_temp("c.json", "{\"widths\": [4096"));
  CHECK(corrupt.find("c.json") != std::string::npos);
  CHECK(corrupt.find("not valid JSON") != std::string::npos);
  CHECK(error_of("/nonexistent/credit.json").find("cannot open") != std::string::npos);

  // "dtype": the workloads in that type, the candidates built in it; a bad type names the field.
  const SweepConfig b = read_sweep_config(write_temp("b.json", R"({"workloads": ["lars", "rmsnorm"], "dtype": "bf16"})"));
  CHECK(b.element == ElementType::BF16);  // (the workloads and points it runs: cli_sweep_dry_run_bf16*)
  CHECK(read_sweep_config(ok).element == ElementType::F32);
  CHECK(error_of(write_temp("d.json", R"({"dtype": "fp8"})")).find("dtype") != std::string::npos);
  CHECK(error_of(write_temp("d2.json", R"({"dtype": 16})")).find("dtype") != std::string::npos);
  // seed 001's ladder takes a type too: the rungs built in it run, the others are recorded as not supported
  CHECK(read_sweep_config(write_temp("d3.json", R"({"metric": "host_completion", "dtype": "bf16"})")).element ==
        ElementType::BF16);
  CHECK(read_sweep_config(write_temp("d4.json", R"({"metric": "host_completion", "dtype": "f32"})")).element ==
        ElementType::F32);
}

// A config (written to a temporary file) that read_sweep_config refuses, the error naming the file, field and problem.
static void check_error(const std::string& json, const std::string& field, const std::string& problem) {
  INFO("config " << json);
  const std::string e = error_of(write_temp("checked.json", json));
  CHECK(e.find("checked.json: " + field + ": " + problem) != std::string::npos);
}

TEST_CASE("sweep config integers are range-checked before conversion, naming the field", "[sweep]") {
  // 2^32 + 2 became P = 2 and 2^32 + 5 samples 5 (checked as long long, then read as int).
  check_error(R"({"cluster_sizes": [4294967298]})", "cluster_sizes[0]", "expected a cluster size, 2, 4, 8 or 16, got 4294967298");
  check_error(R"({"splits": [4294967297]})", "splits[0]", "expected a positive integer up to 64");
  check_error(R"({"samples": 4294967301})", "samples", "expected a positive integer up to 100000");
  check_error(R"({"warmup": 4294967296})", "warmup", "expected a non-negative integer up to 10000");
  check_error(R"({"samples": 18446744073709551615})", "samples", "expected a positive integer");
  check_error(R"({"passes": 4294967297})", "passes", "expected 1 or 2");
  check_error(R"({"passes": 18446744073709551615})", "passes", "expected 1 or 2");
  // The README's limits, as for --shape: N up to 2^30, M up to 2^31 - 1.
  check_error(R"({"widths": [4096, 2147483648]})", "widths[1]", "expected a positive integer up to 2^30");
  check_error(R"({"widths": [1073741825]})", "widths[0]", "expected a positive integer up to 2^30");
  check_error(R"({"widths": [18446744073709551615]})", "widths[0]", "expected a positive integer up to 2^30");
  check_error(R"({"rows": {"layernorm": 1099511627776}})", "rows.layernorm", "expected a positive integer up to 2^31 - 1");
  check_error(R"({"row_counts": [2147483648]})", "row_counts[0]", "expected a positive integer up to 2^31 - 1");
  check_error(R"({"metric": "host_completion", "switch_rows": [1, 2147483648]})", "switch_rows[1]",
              "expected a positive integer up to 2^31 - 1");
  // The limits themselves read.
  const SweepConfig c = read_sweep_config(write_temp("limits.json", R"({"widths": [1073741824], "rows": {"lars": 2147483647},
      "samples": 100000, "warmup": 10000})"));
  CHECK(c.widths == std::vector<long long>{1073741824});
  CHECK(rows_for(c, "lars", 1) == 2147483647);
  CHECK(c.samples == 100000);
  CHECK(c.warmup == 10000);
}

TEST_CASE("sweep config lists reject an item given twice, naming it", "[sweep]") {
  // [4096, 4096] measured N = 4096 twice.
  check_error(R"({"widths": [4096, 4096]})", "widths[1]", "4096 is given twice");
  check_error(R"({"cluster_sizes": [2, 4, 2]})", "cluster_sizes[2]", "2 is given twice");
  check_error(R"({"splits": [8, 8]})", "splits[1]", "8 is given twice");
  check_error(R"({"row_counts": [16, 32, 16]})", "row_counts[2]", "16 is given twice");
  check_error(R"({"metric": "host_completion", "switch_rows": [7, 7]})", "switch_rows[1]", "7 is given twice");
  check_error(R"({"workloads": ["lars", "layernorm", "lars"]})", "workloads[2]", "\"lars\" is given twice");
}

TEST_CASE("sweep configs reject unknown keys, naming them", "[sweep]") {
  // A misspelt key used to run the full default sweep.
  const std::string e = error_of(write_temp("typo.json", R"({"widht": [4096]})"));
  CHECK(e.find("typo.json: widht: unknown key") != std::string::npos);
  CHECK(e.find("widths") != std::string::npos);  // the known keys are listed
  CHECK(error_of(write_temp("typo2.json", R"({"widths": [4096], "Samples": 3})")).find("Samples: unknown key") !=
        std::string::npos);
  // Kernel-sweep keys being added alongside ("passes", "max_bytes") are known keys.
  CHECK(error_of(write_temp("kernel.json", R"({"widths": [4096], "passes": 2, "max_bytes": 1e9})")) == "");
  for (const std::string k : kSweepConfigKeys) {  // a wrong value, but never an unknown key
    INFO("key " << k);
    CHECK(error_of(write_temp("k.json", "{\"" + k + "\": 0}")).find("unknown key") == std::string::npos);
  }
  // A directory is named as such.
  CHECK(error_of(fs::temp_directory_path()).find("is a directory") != std::string::npos);
}

TEST_CASE("every shipped config reads", "[sweep]") {
  int n = 0;
  for (const auto& f : fs::directory_iterator(fs::path(CREDIT_SOURCE_DIR) / "configs")) {
    if (f.path().extension() != ".json") continue;
    INFO("config " << f.path());
    CHECK(error_of(f.path()) == "");
    ++n;
  }
  CHECK(n >= 3);
}

TEST_CASE("the sweep summary compares predicted and measured profitability", "[sweep]") {
  ResultsFile r;
  r.kind = "sweep";
  // N = 16384: the staged baseline (0.30 ms) beats the best cluster (P = 2, 0.31 ms).
  r.points = {point("staged", 1, 16384, 0.30), point("cluster", 2, 16384, 0.31), point("cluster", 4, 16384, 0.40),
              // N = 65536: global reread 2.0 ms; P = 8 at 1.1 ms is the fastest cluster.
              point("global_reread", 1, 65536, 2.0), point("cluster", 4, 65536, 1.3), point("cluster", 8, 65536, 1.1)};
  r.points.push_back(point("cluster", 16, 65536, 0.5));
  r.points.back().disposition = Disposition::Incorrect;  // a wrong kernel never counts as a win
  r.predictions = {prediction("paper", 16384, std::nullopt), prediction("refined", 16384, 4),
                   prediction("paper", 65536, 8), prediction("refined", 65536, 8)};
  const SweepSummary s = summarize_sweep(r);
  REQUIRE(s.shapes.size() == 2);
  CHECK_FALSE(s.shapes[0].measured_profitable);
  CHECK(s.shapes[0].best_p == 2);
  CHECK(s.shapes[1].measured_profitable);
  CHECK(s.shapes[1].best_p == 8);
  CHECK(s.total == 2);
  CHECK(s.correct.at("paper") == 2);
  CHECK(s.correct.at("refined") == 1);
  REQUIRE(s.workloads.size() == 1);
  CHECK(s.workloads[0].measured_n_star == 65536);
  CHECK(s.workloads[0].predicted_n_star.at("paper") == 65536);
  CHECK(s.workloads[0].predicted_n_star.at("refined") == 16384);
  CHECK(s.exact_n_star.at("paper") == 1);
  CHECK(s.exact_n_star.at("refined") == 0);

  // Speed-ups of the best cluster: N = 16384: 0.30 / 0.31; N = 65536 over CUDA 2.0 / 1.1, over a
  // torch.compile point at 1.5 ms 1.5 / 1.1, and over the best of them 1.5 / 1.1.
  ResultsFile torch;
  torch.points = {point("torch_compile", 1, 65536, 1.5), point("triton", 1, 65536, 9.0)};
  torch.points.back().disposition = Disposition::Incorrect;  // a wrong baseline is no baseline
  const SpeedupTable t = speedups(r, {torch});
  CHECK(std::fabs(t.geomean.at(16384).at("cuda") - 0.30 / 0.31) < 1e-12);
  CHECK(std::fabs(t.geomean.at(65536).at("cuda") - 2.0 / 1.1) < 1e-12);
  CHECK(std::fabs(t.geomean.at(65536).at("torch_compile") - 1.5 / 1.1) < 1e-12);
  CHECK(std::fabs(t.geomean.at(65536).at("best") - 1.5 / 1.1) < 1e-12);
  CHECK(t.geomean.at(65536).count("triton") == 0);
}

TEST_CASE("DSMEM against global-memory exchange: the fastest passed P of each", "[sweep]") {
  ResultsFile r;
  r.kind = "sweep";
  r.points = {point("cluster", 8, 65536, 1.0), point("cluster", 16, 65536, 0.9), point("megakernel", 8, 65536, 1.2),
              point("megakernel", 32, 65536, 1.1), point("local_fusion", 16, 65536, 1.5),
              point("local_fusion", 64, 65536, 0.5), point("cluster", 4, 4096, 0.1)};  // no global point at 4096
  r.points[5].disposition = Disposition::Incorrect;  // faster, but wrong: never the best
  const auto c = compare_exchanges(r);
  REQUIRE(c.size() == 1);
  CHECK(c[0].n == 65536);
  REQUIRE(c[0].cluster);
  CHECK(c[0].cluster->p == 16);
  REQUIRE(c[0].megakernel);
  CHECK(c[0].megakernel->p == 32);
  CHECK(c[0].megakernel->ms == 1.1);
  REQUIRE(c[0].local_fusion);
  CHECK(c[0].local_fusion->p == 16);
}

TEST_CASE("a sweep's results file is written when due, at a flush, and not in between", "[sweep][save]") {
  double t = 100.0;
  int written = 0;
  ThrottledSave s([&] { ++written; }, 2.0, [&] { return t; });
  CHECK_FALSE(s.dirty());
  s.flush();  // nothing new: nothing written
  CHECK(written == 0);
  s.changed();  // 0 s since the start: not due
  CHECK(written == 0);
  CHECK(s.dirty());
  t += 1.5;
  s.changed();
  CHECK(written == 0);
  t += 0.5;  // 2 s: due
  s.changed();
  CHECK(written == 1);
  CHECK_FALSE(s.dirty());
  t += 0.1;
  s.changed();
  CHECK(written == 1);
  s.flush();  // the end of a shape: what is unwritten is written now
  CHECK(written == 2);
  s.flush();
  CHECK(written == 2);
  CHECK(s.writes() == 2);
}

TEST_CASE("a failed write leaves the points unwritten, to be written again", "[sweep][save]") {
  double t = 0;
  bool fail = true;
  int written = 0;
  ThrottledSave s([&] { if (fail) throw std::runtime_error("disk full"); ++written; }, 1.0, [&] { return t; });
  s.changed();
  CHECK_THROWS_AS(s.flush(), std::runtime_error);
  CHECK(s.dirty());
  fail = false;
  s.flush();
  CHECK(written == 1);
  CHECK_FALSE(s.dirty());
}

TEST_CASE("SIGTERM and SIGINT only ask a running sweep to stop, and the old handlers come back", "[sweep][save]") {
  const auto before = std::signal(SIGTERM, SIG_IGN);  // whatever the process had (Catch2 installs its own)
  std::signal(SIGTERM, before);
  CHECK_FALSE(StopOnSignal::requested());
  {
    const StopOnSignal stop;
    CHECK_FALSE(StopOnSignal::requested());
    std::raise(SIGTERM);  // would end the test process without the handler
    CHECK(StopOnSignal::requested());
    CHECK(StopOnSignal::signal_number() == SIGTERM);
  }
  {
    const StopOnSignal stop;  // a new sweep starts with no stop asked
    CHECK_FALSE(StopOnSignal::requested());
    std::raise(SIGINT);
    CHECK(StopOnSignal::signal_number() == SIGINT);
  }
  // The process's own handler is back: installing one now returns it.
  const auto after = std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGTERM, after);
  CHECK(after == before);
}

TEST_CASE("credit against the peers: the ratio, and the ceiling a kernel at the copy bandwidth would reach", "[sweep]") {
  ResultsFile r;
  r.kind = "sweep";
  r.copy_gbps = 1000;  // 1e9 bytes a millisecond
  auto at = [](SweepPoint p, const char* w, double bytes) {
    p.workload = w;
    p.compulsory_bytes = bytes;
    return p;
  };
  // wvar_bwd: 2e9 compulsory bytes = 2.0 ms at the copy bandwidth; credit's fastest cluster P = 8 at 2.2 ms,
  // its copy of the same bytes 2.4 ms. lars: 1e9 bytes = 1.0 ms, credit's staged at 1.25 ms, no copy point.
  r.points = {at(point("staged", 1, 65536, 3.0), "wvar_bwd", 2e9), at(point("cluster", 8, 65536, 2.2), "wvar_bwd", 2e9),
              at(point("copy", 1, 65536, 2.4), "wvar_bwd", 2e9), at(point("staged", 1, 65536, 1.25), "lars", 1e9),
              at(point("cluster", 16, 65536, 0.5), "lars", 1e9)};
  r.points.back().disposition = Disposition::Incorrect;  // a wrong kernel is never credit's fastest
  ResultsFile peers;
  peers.points = {at(point("triton", 1, 65536, 2.1), "wvar_bwd", 2e9), at(point("torch_compile", 1, 65536, 2.3), "wvar_bwd", 2e9),
                  at(point("triton", 1, 65536, 1.1), "lars", 1e9), at(point("torch_eager", 1, 65536, 0.1), "lars", 1e9),
                  at(point("torch_compile", 1, 65536, 0.2), "lars", 1e9)};
  peers.points.back().disposition = Disposition::Incorrect;  // a wrong peer is no peer; eager is none either
  const PeerTable t = credit_vs_peers(r, {peers});
  REQUIRE(t.shapes.size() == 2);
  const auto cell = std::make_pair(4096LL, 65536LL);
  CHECK(t.count.at(cell) == 2);
  CHECK(std::fabs(t.geomean.at(cell) - std::sqrt(2.1 / 2.2 * (1.1 / 1.25))) < 1e-12);
  CHECK(std::fabs(t.worst.at(cell) - 1.1 / 1.25) < 1e-12);
  // The ceiling: T_peer over the bandwidth time, 2.1 / 2.0 and 1.1 / 1.0.
  REQUIRE(t.ceiling.count(cell) == 1);
  CHECK(std::fabs(t.ceiling.at(cell) - std::sqrt(2.1 / 2.0 * 1.1)) < 1e-12);
  for (const auto& s : t.shapes) {
    CHECK(s.t_bandwidth == (s.workload == "lars" ? 1.0 : 2.0));
    CHECK(s.t_copy == (s.workload == "lars" ? 0.0 : 2.4));
  }
  // lars has no copy point, so the cell has no copy figure (a mean over fewer workloads would not be the cell's).
  CHECK(t.copy.count(cell) == 0);
  r.points.push_back(at(point("copy", 1, 65536, 1.0), "lars", 1e9));
  const PeerTable with_copy = credit_vs_peers(r, {peers});
  REQUIRE(with_copy.copy.count(cell) == 1);
  CHECK(std::fabs(with_copy.copy.at(cell) - std::sqrt(2.1 / 2.4 * 1.1)) < 1e-12);
  // A file without a copy bandwidth gives no ceiling.
  r.copy_gbps = 0;
  CHECK(credit_vs_peers(r, {peers}).ceiling.empty());
}

TEST_CASE("credit against the copy: the fastest passed candidate over the copy of the same bytes", "[sweep]") {
  ResultsFile r;
  r.kind = "sweep";
  auto of = [](SweepPoint p, const char* w) {
    p.workload = w;
    return p;
  };
  // wvar_bwd: the cluster (2.2 ms) beats staged (3.0); its copy takes 2.0 ms: 2.0 / 2.2. lars: staged at 1.25 ms, a
  // faster cluster that failed its check and a control (never a candidate), its copy 1.0 ms: 1.0 / 1.25.
  r.points = {of(point("staged", 1, 65536, 3.0), "wvar_bwd"),  of(point("cluster", 8, 65536, 2.2), "wvar_bwd"),
              of(point("copy", 1, 65536, 2.0), "wvar_bwd"),    of(point("staged", 1, 65536, 1.25), "lars"),
              of(point("cluster", 16, 65536, 0.5), "lars"),    of(point("control", 2, 65536, 0.1), "lars"),
              of(point("copy", 1, 65536, 1.0), "lars"),        of(point("staged", 1, 65536, 1.0), "rms_softmax")};
  r.points[4].disposition = Disposition::Incorrect;
  const CopyFractionTable t = credit_vs_copy(r);
  const auto cell = std::make_pair(r.points[0].m, 65536LL);
  REQUIRE(t.geomean.count(cell) == 1);
  CHECK(t.count.at(cell) == 2);  // rms_softmax has no copy point: left out
  CHECK(std::fabs(t.geomean.at(cell) - std::sqrt(2.0 / 2.2 * (1.0 / 1.25))) < 1e-12);
  CHECK(t.lowest.at(cell).workload == "lars");
  CHECK(t.lowest.at(cell).schedule == "staged");
  CHECK(std::fabs(t.lowest.at(cell).fraction - 0.8) < 1e-12);
}
