#pragma once
// The whole report as one Document: inputs, summary, the paper's tables and figures per device,
// and every point that did not pass.
#include <string>

#include "report/document.hpp"
#include "report/report_data.hpp"

namespace credit::report {

// `made_by` names the tool that wrote the report, e.g. "credit 0.1.0 (c9351f1)".
Document build_document(const ReportData& d, const std::string& made_by);

}  // namespace credit::report
