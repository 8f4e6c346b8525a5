// credit report's lead table (cluster from N >= N*, with P = ...) on small synthetic sweeps and
// on the H200 paper sweep (tests/fixtures) against an oracle computed here from the JSON.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "catch.hpp"
#include "io/json_records.hpp"
#include "report/markdown.hpp"
#include "report/report_document.hpp"
#include "report/report_lead.hpp"
#include "support/synthetic_sweep.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

using synthetic::Width;
using synthetic::data_of;
using synthetic::reread;

report::Lead lead(const std::vector<Width>& widths) {
  const report::ReportData d = data_of(widths);
  REQUIRE(d.comparisons.size() == 1);
  const auto leads = report::leads(d.comparisons[0], std::string("paper"));
  REQUIRE(leads.size() == 1);
  return leads[0];
}

const fs::path kFixtures = fs::path(CREDIT_FIXTURE_DIR);

}  // namespace

TEST_CASE("lead: a cluster that never wins says never, and how close it came", "[report][lead]") {
  const report::Lead l = lead({{4096, reread(1.0), {{2, 1.3}, {4, 1.2}}},
                               {16384, reread(1.0), {{4, 1.05}, {8, 1.1}}},
                               {65536, reread(1.0), {{8, 1.02}, {16, 1.04}}}});
  CHECK_FALSE(l.n_star);
  CHECK(report::from_cell(l) == "never");
  CHECK(report::p_cell(l) == "-");
  CHECK(report::speedup_cell(l) == "-");
  CHECK(report::notes_cell(l) == "closest: 0.98x at 65536 (P = 8)");
  CHECK(report::measured_cell(l) == "3 (4096-65536)");
  CHECK(report::model_cell(l) == "3/3");  // the paper model never predicted a cluster: right
}

TEST_CASE("lead: wins from some N on, against the faster one-CTA kernel, with the P of each width",
          "[report][lead]") {
  // At 4096 the cluster beats global_reread (the CUDA baseline the predictions used) but not
  // staged: the lead counts that as a loss. At 16384 staged is the one to beat too.
  const report::Lead l = lead({{4096, {{"global_reread", 1.0}, {"staged", 0.6}}, {{2, 0.8}}, 2},
                               {16384, {{"global_reread", 1.0}, {"staged", 0.96}}, {{4, 0.8}, {8, 0.9}}, 8},
                               {65536, reread(1.0), {{4, 0.7}, {8, 0.5}}, 8},
                               {262144, reread(1.2), {{8, 0.6}, {16, 0.9}}, 16}});
  REQUIRE(l.n_star);
  CHECK(*l.n_star == 16384);
  CHECK(report::from_cell(l) == "16384");
  CHECK(report::p_cell(l) == "4 (16384), 8 (65536-262144)");
  CHECK(report::speedup_cell(l) == "1.20-2.00x");  // 0.96 / 0.8 ... 1.0 / 0.5
  CHECK(report::notes_cell(l) == "-");
  // Model P against the fastest: 2 vs 1 (staged), 8 vs 4, 8 vs 8, 16 vs 8.
  CHECK(report::model_cell(l) == "1/4");
}

TEST_CASE("lead: wins and losses out of order are said, not smoothed over", "[report][lead]") {
  std::vector<Width> w{{16384, reread(1.0), {{4, 1.1}}},
                       {32768, reread(1.0), {{8, 0.9}}},
                       {65536, reread(1.0), {{8, 1.05}}},
                       {131072, reread(1.0), {{16, 0.8}}}};
  report::Lead l = lead(w);  // the largest width wins: N* is where the last run of wins starts
  REQUIRE(l.n_star);
  CHECK(*l.n_star == 131072);
  CHECK(report::p_cell(l) == "16");
  CHECK(report::speedup_cell(l) == "1.25x");
  CHECK(report::notes_cell(l) == "also wins at 32768; not at 65536");

  w.push_back({262144, reread(1.0), {{16, 1.1}}});
  l = lead(w);  // the largest width loses: no N*
  CHECK_FALSE(l.n_star);
  CHECK(report::from_cell(l) == "never");
  CHECK(report::p_cell(l) == "8 (32768), 16 (131072)");  // where it does win
  CHECK(report::notes_cell(l) == "wins at 32768, 131072; not at 65536, 262144");
}

TEST_CASE("lead: runs of neighbouring widths, ties between timing passes", "[report][lead]") {
  using report::WidthResult;
  auto win = [](long long n, bool w, int p) { return WidthResult{n, w, false, p, w ? 1.2 : 0.9, w ? p : 1, {}}; };
  // Given out of order: sorted by N.
  const report::Lead l = report::lead_of(
      "x", 1,
      {win(131072, false, 16), win(4096, true, 2), win(8192, false, 2), win(16384, true, 4), win(32768, true, 8),
       win(65536, true, 8)});
  CHECK_FALSE(l.n_star);
  CHECK(report::notes_cell(l) == "wins at 4096, 16384-65536; not at 8192, 131072");
  CHECK(report::p_cell(l) == "2 (4096), 4 (16384), 8 (32768-65536)");

  // The second pass says the cluster loses at 65536: within noise there.
  const report::Lead t = lead({{16384, reread(1.0), {{4, 1.1}}, {}, {{4, 1.1}}},
                               {65536, reread(1.0), {{8, 0.95}}, {}, {{8, 1.05}}},
                               {131072, reread(1.0), {{16, 0.8}}, {}, {{16, 0.8}}}});
  REQUIRE(t.n_star);
  CHECK(*t.n_star == 65536);
  CHECK(report::notes_cell(t) == "within noise at 65536 (the two timing passes disagree)");
}

TEST_CASE("lead: the report opens with it, one row per workload and M", "[report][lead]") {
  const report::ReportData d = data_of({{4096, reread(1.0), {{2, 1.2}}}, {65536, reread(1.0), {{8, 0.5}}, 8}});
  const std::string md = report::render_markdown(report::build_document(d, "credit test"));
  const auto lead_at = md.find("\n## When to cluster"), summary_at = md.find("\n## Summary");
  REQUIRE(lead_at != std::string::npos);
  CHECK(lead_at < summary_at);
  CHECK(md.find("| layernorm | 1024 |") != std::string::npos);
  std::regex row("\\| layernorm \\| +1024 \\| +2 \\(4096-65536\\) \\| +65536 \\| 8 +\\| +2\\.00x \\| - +\\| +2/2 \\|");
  CHECK(std::regex_search(md, row));
}

TEST_CASE("lead: N* on the H200 paper sweep matches an oracle from the JSON", "[report][lead]") {
  const ResultsFile r = read_results(kFixtures / "sweep-paper-h200.json");
  // Per workload and N: fastest one-CTA kernel against the fastest cluster.
  std::map<std::string, std::map<long long, std::pair<double, double>>> t;  // w -> n -> (one-CTA, cluster)
  for (const auto& p : r.points) {
    if (p.disposition != Disposition::Passed) continue;
    const bool cluster = p.schedule == "cluster";
    if (!cluster && p.schedule != "staged" && p.schedule != "global_reread" && p.schedule != "registers") continue;
    auto& [one, cl] = t[p.workload].try_emplace(p.n, INFINITY, INFINITY).first->second;
    double& v = cluster ? cl : one;
    v = std::min(v, p.time_ms.median);
  }
  const report::ReportData d = report::load_report({kFixtures / "sweep-paper-h200.json"});
  REQUIRE(d.comparisons.size() == 1);
  const auto leads = report::leads(d.comparisons[0], std::nullopt);
  CHECK(leads.size() == t.size());
  for (const auto& l : leads) {
    std::optional<long long> n_star;
    for (auto it = t[l.workload].rbegin(); it != t[l.workload].rend() && it->second.second < it->second.first; ++it)
      n_star = it->first;
    INFO(l.workload);
    CHECK(l.n_star == n_star);
  }
}
