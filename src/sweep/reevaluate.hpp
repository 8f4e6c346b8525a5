#pragma once
// The paper's model (Eq. 3-9) re-evaluated on the timings a results file recorded: T_B from the
// CUDA baseline's point, T_ctrl per P from the "control" points, the copy from the "copy" point.
// Used by `credit predict --from` and `credit run-sweep --summarize --reevaluate`; no GPU.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/prediction.hpp"
#include "core/results_file.hpp"
#include "model/profitability.hpp"

namespace credit {

// A results file lacks what the model needs (its calibration, or a passed baseline point).
struct MissingInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// T_B, T_ctrl per P and the copy bandwidth recorded in a results file for one shape (the
// baseline's point and the "control" points); throws MissingInput when T_B is missing.
model::ShapeTimings timings_from(const ResultsFile& f, const std::string& workload, long long m, long long n,
                                 const std::string& baseline);

// Every shape predicted in the file, re-evaluated with the current model for each variant
// (only_workload: that workload's alone, when not empty). Throws MissingInput when the file
// carries no calibration or a shape's T_B, std::invalid_argument for an unknown workload.
std::vector<Prediction> reevaluate(const ResultsFile& in, const std::vector<model::Variant>& variants,
                                   const std::string& only_workload = "");

}  // namespace credit
