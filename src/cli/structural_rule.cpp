#include "cli/structural_rule.hpp"

#include "cli/commands.hpp"
#include "model/profitability.hpp"

namespace credit::cli {

void refuse_by_structure(const WorkloadInfo& w, const std::string& where) {
  const auto why = model::structural_rejection(w.figures);
  if (!why) return;
  throw CommandFailed((where.empty() ? "" : where + ": ") + w.name +
                          " is rejected by rule, before any model arithmetic: " + *why +
                          " (a negative control: credit list shows it, credit bench measures it)",
                      kExitBadInput);
}

void refuse_by_structure(const std::vector<std::string>& names, const std::string& where) {
  for (const auto& n : names) refuse_by_structure(find_workload(n), where);
}

}  // namespace credit::cli
