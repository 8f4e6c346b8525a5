#pragma once
// The declared workloads, as a caller sees them: names and the tensors a launch takes, in
// declaration order (`credit list` prints their math).
#include <string>
#include <string_view>
#include <vector>

namespace credit {

struct WorkloadTensors {
  std::vector<std::string> inputs;       // fp32 [M x N] each
  std::vector<std::string> col_params;   // fp32 [N]
  std::vector<std::string> row_params;   // fp32 [M]
  std::vector<std::string> outputs;      // [M x N], fp32 unless output_is_int8
  std::vector<bool> output_is_int8;
  std::vector<std::string> row_outputs;  // fp32 [M]
};

// The reduction-reuse workloads the selector and the launchers serve (every declared one; `credit list`
// prints their count).
std::vector<std::string> workload_names();
WorkloadTensors workload_tensors(std::string_view workload);  // throws std::invalid_argument

}  // namespace credit
