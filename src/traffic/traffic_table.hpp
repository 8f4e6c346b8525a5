#pragma once
// The measured DRAM traffic of a run as a text table (bench --traffic, run-sweep with "traffic"):
// per measured point, bytes per element read, written and in all, beside the model's.
#include <string>
#include <vector>

#include "core/sweep_point.hpp"

namespace credit::traffic {

// One line per point with a measurement, in the points' order; "" when none has one.
std::string traffic_table(const std::vector<SweepPoint>& points);

}  // namespace credit::traffic
