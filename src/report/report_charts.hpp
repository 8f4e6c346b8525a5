#pragma once
// The report's figures as inline SVG, keyed by the id of the section they illustrate
// (report_tables.hpp): speedup vs N per workload, geometric means vs N, predicted vs measured
// N*, % of copy per schedule, calibration bars by P.
#include <map>
#include <string>
#include <vector>

#include "report/report_data.hpp"

namespace credit::report {

std::map<std::string, std::vector<std::string>> report_charts(const ReportData& d);

}  // namespace credit::report
