// credit report: the Markdown's numbers against values recomputed here straight from the
// H200 results of tests/fixtures, the error paths, and a self-contained HTML page.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "io/json_records.hpp"
#include "report/html.hpp"
#include "report/markdown.hpp"
#include "report/report_charts.hpp"
#include "report/report_document.hpp"
#include "report/svg_chart.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

const fs::path kFixtures = fs::path(CREDIT_FIXTURE_DIR);

std::string markdown_of(const std::vector<fs::path>& files) {
  return report::render_markdown(report::build_document(report::load_report(files), "credit test"));
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The Markdown under the heading that starts with `title`, up to the next heading.
std::string section(const std::string& md, const std::string& title) {
  const auto start = md.find("\n## " + title);
  if (start == std::string::npos) return "";
  const auto end = md.find("\n## ", start + 1);
  return md.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Text with line breaks and runs of spaces as single spaces: prose is wrapped at 100 columns.
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char d = c == '\n' ? ' ' : c;
    if (!(d == ' ' && !out.empty() && out.back() == ' ')) out += d;
  }
  return out;
}

using Row = std::vector<std::string>;

// The rows of the `index`th table of a section, header first, cells trimmed (the alignment row
// dropped).
std::vector<Row> rows(const std::string& text, int index = 0) {
  std::vector<Row> out;
  std::istringstream in(text);
  int table = -1;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    const bool row = !line.empty() && line[0] == '|';
    table += row && !in_table;
    in_table = row;
    if (!row || table != index || line.find("---") != std::string::npos) continue;
    Row r;
    std::size_t pos = 1;
    for (auto bar = line.find('|', pos); bar != std::string::npos; pos = bar + 1, bar = line.find('|', pos))
      r.push_back(trim(line.substr(pos, bar - pos)));
    out.push_back(r);
  }
  return out;
}

// The cell in column `column` of the first row whose leading cells are `key`.
std::string cell(const std::vector<Row>& t, const Row& key, const std::string& column) {
  REQUIRE(!t.empty());
  const auto col = std::find(t[0].begin(), t[0].end(), column);
  REQUIRE(col != t[0].end());
  for (std::size_t i = 1; i < t.size(); ++i)
    if (std::equal(key.begin(), key.end(), t[i].begin())) return t[i][std::size_t(col - t[0].begin())];
  FAIL("no row " << key[0] << " in the table");
  return "";
}

// ---- the oracle: straight from the JSON, without the report's code ----

double median_of(const ResultsFile& r, const std::string& w, long long n, const std::string& schedule, int p) {
  for (const auto& pt : r.points)
    if (pt.workload == w && pt.n == n && pt.schedule == schedule && pt.p == p && pt.disposition == Disposition::Passed)
      return pt.time_ms.median;
  return NAN;
}

const Prediction& prediction_of(const ResultsFile& r, const std::string& w, long long n, const std::string& model) {
  for (const auto& pr : r.predictions)
    if (pr.workload == w && pr.n == n && pr.model == model) return pr;
  FAIL("no prediction");
  return r.predictions.front();
}

struct Expected {
  double t_cuda = NAN, t_credit = NAN;
  int best_p = 0;
  double credit_pct = 0;
};

Expected expected(const ResultsFile& r, const std::string& w, long long n) {
  Expected e;
  e.t_cuda = median_of(r, w, n, prediction_of(r, w, n, "paper").baseline, 1);
  for (const auto& pt : r.points)
    if (pt.workload == w && pt.n == n && pt.schedule == "cluster" && pt.disposition == Disposition::Passed &&
        (e.best_p == 0 || pt.time_ms.median < e.t_credit)) {
      e.t_credit = pt.time_ms.median;
      e.best_p = pt.p;
      e.credit_pct = pt.pct_of_copy;
    }
  return e;
}

std::vector<std::string> workloads_of(const ResultsFile& r) {
  std::vector<std::string> w;
  for (const auto& pr : r.predictions)
    if (std::find(w.begin(), w.end(), pr.workload) == w.end()) w.push_back(pr.workload);
  return w;
}

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "credit-test-report";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string error_of(const std::vector<fs::path>& files) {
  try {
    report::load_report(files);
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return "";
}

nlohmann::json paper_json() {
  std::ifstream in(kFixtures / "sweep-paper-h200.json");
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("report: Fig. 3 and Table IV speedups are T_CUDA / T_best-P from the sweep", "[report]") {
  const ResultsFile r = read_results(kFixtures / "sweep-paper-h200.json");
  const std::string md = markdown_of({kFixtures / "sweep-paper-h200.json"});
  const auto fig3 = rows(section(md, "Fig. 3"));

  const Expected e = expected(r, "wvar_bwd", 65536);
  CHECK(cell(fig3, {"wvar_bwd", "4096", "65536"}, "best P") == std::to_string(e.best_p));
  CHECK(cell(fig3, {"wvar_bwd", "4096", "65536"}, "vs CUDA") == fmt::format("{:.3f}", e.t_cuda / e.t_credit));
  CHECK(cell(fig3, {"wvar_bwd", "4096", "65536"}, "T_CREDIT ms") == fmt::format("{:.4f}", e.t_credit));

  // Table IV: geometric mean over the workloads at N = 4096 and at N = 65536.
  const auto table4 = rows(section(md, "Table IV"));
  for (long long n : {4096LL, 65536LL}) {
    double log_sum = 0;
    int k = 0;
    for (const auto& w : workloads_of(r)) {
      const Expected x = expected(r, w, n);
      log_sum += std::log(x.t_cuda / x.t_credit);
      ++k;
    }
    CHECK(k == 7);
    CHECK(cell(table4, {std::to_string(n)}, "vs CUDA") == fmt::format("{:.3f}", std::exp(log_sum / k)));
  }
  // No baseline file given: the report says so, and compares with CUDA only.
  CHECK(flat(md).find("Triton and PyTorch eager were not measured") != std::string::npos);
  CHECK(fig3[0].back() == "vs CUDA");

  // Bandwidth: the best P's % of copy as recorded in its point.
  const auto bw = rows(section(md, "Bandwidth"));
  CHECK(cell(bw, {"layernorm", "2048", "65536"}, "CREDIT %") ==
        fmt::format("{:.1f}", expected(r, "layernorm", 65536).credit_pct));
}

TEST_CASE("report: Table V confusion counts and Fig. 4 N* match the sweep", "[report]") {
  const ResultsFile r = read_results(kFixtures / "sweep-paper-h200.json");
  const std::string md = markdown_of({kFixtures / "sweep-paper-h200.json"});
  for (const std::string model : {"paper", "refined"}) {
    int tp = 0, fp = 0, tn = 0, fn = 0;
    std::map<std::string, std::optional<long long>> measured_n_star, predicted_n_star;
    for (const auto& pr : r.predictions) {
      if (pr.model != model) continue;
      const Expected e = expected(r, pr.workload, pr.n);
      const bool measured = e.best_p > 0 && e.t_credit < e.t_cuda, predicted = pr.best_p.has_value();
      (predicted ? (measured ? tp : fp) : (measured ? fn : tn)) += 1;
      auto& ms = measured_n_star[pr.workload];
      if (measured && (!ms || pr.n < *ms)) ms = pr.n;
      auto& ps = predicted_n_star[pr.workload];
      if (predicted && (!ps || pr.n < *ps)) ps = pr.n;
    }
    CHECK(tp + fp + tn + fn == 35);
    const auto table5 = rows(section(md, "Table V"));
    const Row key{"D1", model};
    CHECK(cell(table5, key, "TP") == std::to_string(tp));
    CHECK(cell(table5, key, "FP") == std::to_string(fp));
    CHECK(cell(table5, key, "TN") == std::to_string(tn));
    CHECK(cell(table5, key, "FN") == std::to_string(fn));
    CHECK(cell(table5, key, "accuracy") == fmt::format("{:.1f}%", 100.0 * (tp + tn) / 35));

    const auto fig4 = rows(section(md, "Fig. 4"));
    for (const char* w : {"wvar_bwd", "quant_int8"}) {
      const auto name = [](std::optional<long long> n) { return n ? std::to_string(*n) : std::string("none"); };
      CHECK(cell(fig4, {w}, "measured N*") == name(measured_n_star[w]));
      CHECK(cell(fig4, {w}, model + " N*") == name(predicted_n_star[w]));
    }
  }
}

TEST_CASE("report: torch/Triton baselines join the sweep of their GPU; failures are listed", "[report]") {
  const fs::path torch = kFixtures / "sweep-paper-torch-h200.json";
  const ResultsFile t = read_results(torch);
  const ResultsFile r = read_results(kFixtures / "sweep-paper-h200.json");
  const std::string md = markdown_of({kFixtures / "sweep-paper-h200.json", torch});
  const auto fig3 = rows(section(md, "Fig. 3"));
  const Expected e = expected(r, "softmax_bwd", 65536);
  const double triton = median_of(t, "softmax_bwd", 65536, "triton", 1);
  REQUIRE(std::isfinite(triton));
  CHECK(cell(fig3, {"softmax_bwd", "4096", "65536"}, "vs Triton") == fmt::format("{:.3f}", triton / e.t_credit));
  double best = e.t_cuda;
  for (const char* s : {"torch_compile", "triton", "torch_eager"})
    if (const double x = median_of(t, "softmax_bwd", 65536, s, 1); std::isfinite(x)) best = std::min(best, x);
  CHECK(cell(fig3, {"softmax_bwd", "4096", "65536"}, "vs best") == fmt::format("{:.3f}", best / e.t_credit));
  // Shapes the baseline file does not cover show no speedup against it, and no "best".
  const auto wide = rows(section(markdown_of({kFixtures / "sweep-extended-softmax_bwd-h200.json", torch}), "Fig. 3"));
  CHECK(cell(wide, {"softmax_bwd", "4096", "131072"}, "vs Triton") == "-");
  CHECK(cell(wide, {"softmax_bwd", "4096", "131072"}, "vs best") == "-");
  CHECK(cell(wide, {"softmax_bwd", "4096", "65536"}, "vs best") != "-");

  // Every incorrect point is listed one by one with its reason.
  const auto problems = rows(section(md, "Points that did not pass"));
  for (const auto& pt : t.points)
    if (pt.disposition == Disposition::Incorrect) {
      const Row key{"D1", "sweep-paper-torch-h200.json", pt.workload, std::to_string(pt.m), std::to_string(pt.n),
                    pt.schedule};
      CHECK(cell(problems, key, "disposition") == "incorrect");
    }
}

TEST_CASE("report: baselines from another GPU of the same name join, and say so", "[report]") {
  std::ifstream in(kFixtures / "sweep-paper-torch-h200.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["device"]["uuid"] = "GPU-00000000-other";
  const fs::path other = temp_file("other-h200.json", j.dump());
  const std::string md = markdown_of({kFixtures / "sweep-paper-h200.json", other});
  const auto fig3 = rows(section(md, "Fig. 3"));
  CHECK(cell(fig3, {"lars", "4096", "65536"}, "vs Triton") != "-");
  CHECK(flat(section(md, "Fig. 3")).find("measured on D2 NVIDIA H200 [GPU-00000000]") != std::string::npos);

  j["device"]["name"] = "NVIDIA H100";  // another model: compared with nothing
  const std::string h100 = markdown_of({kFixtures / "sweep-paper-h200.json", temp_file("h100.json", j.dump())});
  CHECK(rows(section(h100, "Fig. 3"))[0].back() == "vs CUDA");
  CHECK(flat(h100).find("no CREDIT sweep of a NVIDIA H100") != std::string::npos);
}

TEST_CASE("report: several GPUs get one Table II column group each", "[report]") {
  const std::string md =
      markdown_of({kFixtures / "sweep-paper-h200.json", kFixtures / "h200-calibration-without-model.json"});
  const auto t2 = rows(section(md, "Table II"), 1);
  CHECK(md.find("| D1 P=2 ") != std::string::npos);
  CHECK(md.find("| D2 P=2 ") != std::string::npos);
  const ResultsFile c = read_results(kFixtures / "h200-calibration-without-model.json");
  CHECK(cell(t2, {"cluster barrier (cycles)"}, "D2 P=8") == fmt::format("{:.1f}", c.calibration->barrier.at(8).median));
  const auto devices = rows(section(md, "Inputs"), 1);
  CHECK(cell(devices, {"D2"}, "uuid") == c.device.uuid);
}

TEST_CASE("report: the device table gives the driver's and the runtime's CUDA versions", "[report]") {
  // Both are CUDA versions as 1000 major + 10 minor; "driver 13000" printed the raw number.
  nlohmann::json j = paper_json();
  j["device"]["driver_version"] = 12040;
  j["device"]["runtime_version"] = 12080;
  const std::string md = markdown_of({temp_file("versions.json", j.dump())});
  const auto devices = rows(section(md, "Inputs"), 1);
  CHECK(cell(devices, {"D1"}, "CUDA driver") == "12.4");
  CHECK(cell(devices, {"D1"}, "CUDA runtime") == "12.8");
  CHECK(md.find("12040") == std::string::npos);
}

TEST_CASE("report: a bad file is named with its field", "[report]") {
  const std::string corrupt = error_of({temp_file("corrupt.json", "{\"schema_version\": 1, \"kind\":")});
  CHECK(corrupt.find("corrupt.json") != std::string::npos);
  CHECK(corrupt.find("not valid JSON") != std::string::npos);

  nlohmann::json j = paper_json();
  j["schema_version"] = 2;
  const std::string version =
      error_of({kFixtures / "h200-calibration-without-model.json", temp_file("v2.json", j.dump())});
  CHECK(version.find("v2.json: schema_version: expected 1, got 2") != std::string::npos);

  j = paper_json();
  j["points"][3]["time_ms"].erase("median");
  const std::string missing = error_of({temp_file("missing.json", j.dump())});
  CHECK(missing.find("missing.json: points[3].time_ms.median") != std::string::npos);

  const std::string kind = error_of({kFixtures / "predict-wvar_bwd-65536-h200.json"});
  CHECK(kind.find("predict-wvar_bwd-65536-h200.json: kind:") != std::string::npos);
}

TEST_CASE("report: the HTML is one self-contained page with SVG charts", "[report]") {
  const report::ReportData d = report::load_report(
      {kFixtures / "sweep-paper-h200.json", kFixtures / "sweep-paper-torch-h200.json",
       kFixtures / "h200-calibration-without-model.json"});
  std::string html = report::render_html(report::build_document(d, "credit test"), report::report_charts(d));
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(html.find("Fig. 3") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  const std::string ns = "xmlns=\"http://www.w3.org/2000/svg\"";
  for (auto p = html.find(ns); p != std::string::npos; p = html.find(ns)) html.erase(p, ns.size());
  CHECK(html.find("http") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
}

TEST_CASE("report: chart labels and escaping", "[report]") {
  CHECK(report::svg::width_label(65536) == "64K");
  CHECK(report::svg::width_label(1 << 20) == "1M");
  CHECK(report::svg::width_label(50257) == "50257");
  CHECK(report::svg::escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;");
}
