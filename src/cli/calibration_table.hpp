#pragma once
// Paper Table II as text: latencies, throughputs and barrier cost per cluster size, with f and
// the clusters the device holds at once.
#include <string>

#include "core/records.hpp"

namespace credit::cli {

std::string format_table_ii(const Calibration& c);

}  // namespace credit::cli
