#include "credit/workloads.hpp"

#include "core/workload_registry.hpp"

namespace credit {

std::vector<std::string> workload_names() {
  std::vector<std::string> out;
  for (const WorkloadInfo& w : all_workloads()) out.push_back(w.name);
  return out;
}

WorkloadTensors workload_tensors(std::string_view workload) {
  const WorkloadInfo& w = find_workload(workload);
  WorkloadTensors t{w.inputs, w.col_params, w.row_params, {}, {}, w.row_outputs};
  for (const OutputDecl& o : w.outputs) {
    t.outputs.push_back(o.name);
    t.output_is_int8.push_back(o.type == OutType::I8);
  }
  return t;
}

}  // namespace credit
