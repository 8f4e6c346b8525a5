// credit report's charts: panels of one chart on one y range (synthetic and the H200
// paper sweep of tests/fixtures), and the P drawn under each speedup panel (the fastest and the model's pick).
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "catch.hpp"
#include "report/report_charts.hpp"
#include "report/svg_chart.hpp"
#include "support/synthetic_sweep.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

using synthetic::data_of;
using synthetic::reread;

// Tick labels of the y axis in a rendered line chart (right-aligned left of the plot).
std::vector<std::string> y_ticks(const std::string& svg) {
  static const std::regex tick("<text x=\"54\\.0\" y=\"[0-9.]+\" text-anchor=\"end\">([^<]*)</text>");
  std::vector<std::string> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), tick), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

const fs::path kFixtures = fs::path(CREDIT_FIXTURE_DIR);

}  // namespace

TEST_CASE("charts: panels of one chart share one y range", "[report][charts]") {
  report::svg::LineChart a, b, empty;
  a.x = b.x = empty.x = {"N", true, {}, {}};
  a.series = {{"s", {{4096, 0.5}, {65536, 1.2}}, 0, false}};
  b.series = {{"s", {{4096, 0.9}, {65536, 2.0}}, 0, false}};
  b.reference_y = 1;
  REQUIRE(y_ticks(report::svg::line_chart(a)) != y_ticks(report::svg::line_chart(b)));  // apart, they differ
  std::vector<report::svg::LineChart> panels{a, b, empty};
  report::svg::share_y_range(panels);
  const auto [lo, hi] = report::svg::y_range(panels[0]);
  CHECK(report::svg::y_range(panels[1]) == std::make_pair(lo, hi));
  CHECK(report::svg::y_range(panels[2]) == std::make_pair(lo, hi));
  CHECK(lo <= 0.5);
  CHECK(hi >= 2.0);
  CHECK(lo > 0.4);  // the empty panel's default range (from 0) did not stretch it
  CHECK(hi < 2.5);
  CHECK(y_ticks(report::svg::line_chart(panels[0])) == y_ticks(report::svg::line_chart(panels[1])));

  report::svg::BarChart x, y;
  x.series = y.series = {"v"};
  x.groups = {{"P=2", {10.0}}};
  y.groups = {{"P=2", {40.0}}};
  std::vector<report::svg::BarChart> bars{x, y};
  report::svg::share_y_range(bars);
  CHECK(report::svg::y_max(bars[0]) == report::svg::y_max(bars[1]));
  CHECK(report::svg::y_max(bars[0]) >= 40.0);

  // The report's own charts: every speedup and bandwidth panel on the scale of all of them.
  const report::ReportData d = report::load_report({kFixtures / "sweep-paper-h200.json"});
  for (const auto& chart : {report::speedup_panels(d.comparisons[0]), report::bandwidth_panels(d.comparisons[0])}) {
    REQUIRE(chart.size() == 7);
    const auto range = report::svg::y_range(chart[0]);
    for (const auto& p : chart) {
      CHECK(report::svg::y_range(p) == range);
      for (const auto& s : p.series)
        for (auto [n, v] : s.points) {
          CHECK(v >= range.first);
          CHECK(v <= range.second);
        }
    }
  }
}

TEST_CASE("charts: each speedup panel shows the fastest P and the model's pick", "[report][charts]") {
  const report::ReportData d = data_of({{4096, {{"global_reread", 1.0}, {"staged", 0.6}}, {{2, 0.8}}, 2},
                                        {16384, reread(1.0), {{4, 0.8}, {8, 0.9}}, 4},
                                        {65536, reread(1.0), {{8, 0.5}}}});
  const auto panels = report::speedup_panels(d.comparisons[0]);
  REQUIRE(panels.size() == 1);
  const auto& rows = panels[0].label_rows;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].name == "fastest P");
  CHECK(rows[1].name == "paper P");
  auto texts = [](const report::svg::LabelRow& r) {
    std::vector<std::string> out;
    for (const auto& l : r.labels) out.push_back(l.text);
    return out;
  };
  CHECK(texts(rows[0]) == std::vector<std::string>{"1", "4", "8"});  // staged beats the cluster at 4096
  CHECK(texts(rows[1]) == std::vector<std::string>{"2", "4", "1"});
  using T = report::svg::Label::Tone;
  CHECK(rows[0].labels[0].tone == T::muted);
  CHECK(rows[1].labels[0].tone == T::alert);  // picked P = 2 where staged was fastest
  CHECK(rows[1].labels[1].tone == T::plain);
  CHECK(rows[1].labels[2].tone == T::alert);  // no cluster picked where P = 8 was fastest
  const std::string svg = report::svg::line_chart(panels[0]);
  CHECK(svg.find(">fastest P</text>") != std::string::npos);
  CHECK(svg.find("the paper model picks cluster P = 2; measured fastest: a one-CTA kernel") != std::string::npos);
}
