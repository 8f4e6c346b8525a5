#pragma once
// The report's figures as inline SVG, keyed by the id of the section they illustrate
// (report_tables.hpp): speedup vs N per workload and M with the P chosen at each width,
// geometric means vs N, predicted vs measured N*, % of copy per schedule, calibration bars by P.
// Panels of one chart share their y range.
#include <map>
#include <string>
#include <vector>

#include "report/report_data.hpp"
#include "report/svg_chart.hpp"

namespace credit::report {

std::map<std::string, std::vector<std::string>> report_charts(const ReportData& d);

// The per-(workload, M) panels of one comparison's charts before rendering, on one y range:
// speedup vs N with the fastest and the picked P under each (Fig. 3), and % of copy.
std::vector<svg::LineChart> speedup_panels(const Comparison& c);
std::vector<svg::LineChart> bandwidth_panels(const Comparison& c);

}  // namespace credit::report
