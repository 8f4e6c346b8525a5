#pragma once
// Paper Table II as text: latencies, throughputs and barrier cost per cluster size, with f and
// the clusters the device holds at once.
#include <string>

#include "calibration/calibration.hpp"

namespace credit::cli {

std::string format_table_ii(const Calibration& c);

// The time model's kernel probes (Calibration::kernel_probes): one line per workload, each probed
// schedule's median time at its shape; "" when the calibration has none.
std::string format_kernel_probes(const Calibration& c);

}  // namespace credit::cli
