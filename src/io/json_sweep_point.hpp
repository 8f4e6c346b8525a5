#pragma once
// JSON form of a measured point of a sweep, bench or ladder results file (core/sweep_point.hpp): its disposition's
// names, the writer (found by nlohmann::json through ADL) and the checked reader. io/json_records.hpp tells the
// layout.
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/sweep_point.hpp"
#include "io/json_node.hpp"

namespace credit {

const char* disposition_name(Disposition d);
// Throws std::invalid_argument for anything but the five names: passed, incorrect, failed, skipped, not_supported.
Disposition parse_disposition(std::string_view name);

// Writers, found by nlohmann::json through ADL (`nlohmann::json j = point;`).
void to_json(nlohmann::json& j, Disposition d);
void to_json(nlohmann::json& j, const SweepPoint& p);

namespace io {

// Throws ResultsFileError naming the field: an unknown workload or disposition, a passed point without a measured
// time, measured DRAM traffic that is no byte count.
SweepPoint read_point(const Node& n);

}  // namespace io
}  // namespace credit
