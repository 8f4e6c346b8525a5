#pragma once
// JSON form of a prediction file's predictions (core/prediction.hpp): the writers (found by nlohmann::json through
// ADL) and the checked reader. io/json_records.hpp tells the layout.
#include <nlohmann/json.hpp>

#include "core/prediction.hpp"
#include "io/json_node.hpp"

namespace credit {

void to_json(nlohmann::json& j, const PredictionRow& r);
void to_json(nlohmann::json& j, const CandidateTime& c);
void to_json(nlohmann::json& j, const Prediction& p);

namespace io {

// Throws ResultsFileError naming the field: an unknown workload, a shape that is not positive.
Prediction read_prediction(const Node& n);

}  // namespace io
}  // namespace credit
