#pragma once
// JSON form of a device calibration (calibration/calibration.hpp) and the time model's constants it carries: the
// writer (found by nlohmann::json through ADL) and the checked reader. io/json_records.hpp tells the layout.
#include <nlohmann/json.hpp>

#include "calibration/calibration.hpp"
#include "io/json_node.hpp"

namespace credit {

void to_json(nlohmann::json& j, const Calibration& c);

namespace io {

// Throws ResultsFileError naming the field: a device with no SMs, shared memory or L2, a repeated P, a constant of
// the time model this build does not know, one out of range.
Calibration read_calibration(const Node& n);

}  // namespace io
}  // namespace credit
