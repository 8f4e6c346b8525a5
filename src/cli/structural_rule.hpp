#pragma once
// predict and run-sweep turn away a workload the model's structural rules reject by construction
// (the negative controls, core/workloads/controls/), before any model arithmetic or GPU work: bad
// input, with the rule's reason.
#include <string>
#include <vector>

#include "core/workload_registry.hpp"

namespace credit::cli {

// Throws CommandFailed (exit 2) naming `where` (an option or a config field, may be empty), the
// workload and the reason, when the structural rules reject w.
void refuse_by_structure(const WorkloadInfo& w, const std::string& where);

// The same for every workload a sweep config names, in its "workloads" list or as a "rows" key.
void refuse_by_structure(const std::vector<std::string>& names, const std::string& where);

}  // namespace credit::cli
