#pragma once
// Run-time view of the declared workloads for the CLI, the model and the tests.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/operands.hpp"
#include "core/static_figures.hpp"

namespace credit {

struct WorkloadInfo {
  std::string name;
  long default_rows = 0;
  std::vector<std::string> inputs, col_params, row_params, row_outputs;
  std::vector<OutputDecl> outputs;
  std::vector<Combine> combine;
  std::vector<std::pair<std::string, Domain>> domains;  // from the declaration; others standard normal
  // The distribution of a tensor's test and benchmark data (standard normal unless declared).
  Domain domain_of(std::string_view tensor) const;
  StaticFigures figures;
  void (*cpu_split)(const RowOperands&, int p) = nullptr;  // CPU clustered decomposition
};

const std::vector<WorkloadInfo>& all_workloads();

// Throws std::invalid_argument naming the known workloads when `name` is not one.
const WorkloadInfo& find_workload(std::string_view name);

}  // namespace credit
