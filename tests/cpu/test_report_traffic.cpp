// credit report's Fig. 5 from measured DRAM traffic: which kernel is the baseline and which the
// clustered one, bytes per element beside the floor, the >5% list, the charts; and no section
// when no input file carries traffic.
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "report/html.hpp"
#include "report/markdown.hpp"
#include "report/report_charts.hpp"
#include "report/report_document.hpp"
#include "report/report_traffic.hpp"
#include "support/sweep_point.hpp"

using namespace credit;

namespace {

// A passed point measured at `bpe` bytes per element (half read, half written).
SweepPoint measured(const std::string& w, long long n, const std::string& schedule, int p, double ms, double bpe) {
  const WorkloadInfo& info = find_workload(w);
  SweepPoint x = test::sweep_point(w, 1024, n, schedule, p, ms);
  x.time_ms = {ms, ms, ms, 5};
  x.compulsory_bytes = 1024.0 * info.figures.d_fixed(double(n));
  x.traffic_bytes = x.compulsory_bytes + (schedule == "global_reread" ? 1024.0 * double(n) * info.figures.b_reread : 0.0);
  const double e = 1024.0 * double(n);
  if (bpe > 0) x.dram = DramTraffic{bpe * e / 2, bpe * e / 2, 1};
  return x;
}

// A bench --traffic file: rms_softmax (compulsory 8 B/element, b_reread 8) and wvar_bwd.
ResultsFile traffic_file() {
  ResultsFile r;
  r.kind = "sweep";
  r.device.name = "Test GPU";
  r.device.uuid = "GPU-00000000-test";
  r.points = {measured("rms_softmax", 16384, "staged", 1, 0.05, 8.01),
              measured("rms_softmax", 16384, "global_reread", 1, 0.07, 8.2),
              measured("rms_softmax", 16384, "cluster", 2, 0.06, 8.02),
              measured("rms_softmax", 65536, "staged", 1, 0.0, 0.0),  // not measured
              measured("rms_softmax", 65536, "global_reread", 1, 0.30, 14.5),
              measured("rms_softmax", 65536, "cluster", 4, 0.20, 8.05),
              measured("rms_softmax", 65536, "cluster", 8, 0.18, 8.9),  // fastest, and over its model
              measured("wvar_bwd", 65536, "global_reread", 1, 0.5, 28.0)};
  r.points[3].disposition = Disposition::NotSupported;
  return r;
}

}  // namespace

TEST_CASE("Fig. 5 data: the paper's baseline, the fastest measured cluster, the floor", "[report][traffic]") {
  const report::ReportData d = report::build_report({{"traffic.json", traffic_file()}});
  REQUIRE(d.traffic.size() == 3);
  const report::TrafficShape& a = d.traffic[0];
  CHECK((a.workload == "rms_softmax" && a.n == 16384));
  REQUIRE(a.baseline);
  CHECK(a.baseline->schedule == "staged");  // staged where it ran, though global_reread came later
  CHECK(a.compulsory == 8.0);
  CHECK(a.b_reread == find_workload("rms_softmax").figures.b_reread);
  const report::TrafficShape& b = d.traffic[1];
  REQUIRE(b.baseline);
  CHECK(b.baseline->schedule == "global_reread");
  CHECK(b.baseline->bytes.total == 14.5);
  REQUIRE(b.cluster);
  CHECK(b.cluster->p == 8);
  CHECK(b.cluster->bytes.over_model);
  CHECK(b.kernels.size() == 3);
  CHECK(d.traffic[2].workload == "wvar_bwd");
  CHECK(!d.traffic[2].cluster);
}

TEST_CASE("the report draws Fig. 5 and lists the kernels over their model", "[report][traffic]") {
  const report::ReportData d = report::build_report({{"traffic.json", traffic_file()}});
  const std::string md = report::render_markdown(report::build_document(d, "credit test"));
  CHECK(md.find("## Fig. 5: DRAM bytes per element, measured") != std::string::npos);
  std::string row;  // the Fig. 5 row of rms_softmax at N = 65536
  for (std::size_t at = 0, nl; (nl = md.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string line = md.substr(at, nl - at);
    if (line.find("rms_softmax") != std::string::npos && line.find("65536") != std::string::npos &&
        line.find("global_reread") != std::string::npos && line.find("P=8") != std::string::npos)
      row = line;
  }
  INFO(md);
  CHECK(row.find("14.50") != std::string::npos);  // measured
  CHECK(row.find("16.00") != std::string::npos);  // model: 8 compulsory + 8 re-read
  CHECK(row.find("8.90") != std::string::npos);   // the fastest cluster
  CHECK(md.find("1 of the 7 measured kernels move more than 5% above their model") != std::string::npos);
  CHECK(md.find("cluster P=8") != std::string::npos);
  const auto charts = report::report_charts(d);
  REQUIRE(charts.count("fig5"));
  CHECK(charts.at("fig5").size() == 2);  // N = 16384 and 65536 at M = 1024
  CHECK(charts.at("fig5")[0].find("compulsory floor") != std::string::npos);
  const std::string html = report::render_html(report::build_document(d, "credit test"), charts);
  CHECK(html.find("Fig. 5") != std::string::npos);
}

TEST_CASE("no traffic in the inputs: no Fig. 5", "[report][traffic]") {
  ResultsFile r = traffic_file();
  for (auto& p : r.points) p.dram.reset();
  const report::ReportData d = report::build_report({{"timed.json", r}});
  CHECK(d.traffic.empty());
  const std::string md = report::render_markdown(report::build_document(d, "credit test"));
  CHECK(md.find("Fig. 5") == std::string::npos);
  CHECK(report::report_charts(d).count("fig5") == 0);
}
