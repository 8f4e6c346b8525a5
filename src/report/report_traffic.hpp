#pragma once
// Fig. 5 of the paper from measured DRAM traffic (bench --traffic, a sweep's "traffic"): bytes
// per element of the one-CTA baseline, the fastest clustered P and the compulsory floor, per
// workload; and every kernel that moves more than its model by over 5%.
#include <string>
#include <vector>

#include "core/sweep_point.hpp"
#include "report/document.hpp"
#include "report/report_data.hpp"
#include "report/svg_chart.hpp"

namespace credit::report {

// The shapes of one device's points that carry a measurement, by workload (first appearance),
// then M, then N. Points that did not pass are left out.
std::vector<TrafficShape> traffic_shapes(const std::vector<SweepPoint>& points, int device);

Section traffic_section(const ReportData& d);  // id "fig5"; build_document adds it when d.traffic is not empty
// One grouped bar chart per device and N: workloads x {baseline, clustered, floor}, one y scale.
std::vector<svg::BarChart> traffic_panels(const ReportData& d);

}  // namespace credit::report
