#pragma once
// The paper's tables and figures as report sections, from the joined data. `k` indexes
// ReportData::comparisons (one per device with a CREDIT sweep).
#include <cstddef>
#include <string>

#include "report/document.hpp"
#include "report/report_data.hpp"

namespace credit::report {

// Section ids: "fig3-1" for the first comparison, ...; the HTML hangs its charts on them.
std::string section_id(const char* base, std::size_t k);

Section calibration_section(const ReportData& d);               // Table II, id "table2"
Section speedup_section(const ReportData& d, std::size_t k);    // Fig. 3, "fig3-K"
Section geomean_section(const ReportData& d, std::size_t k);    // Table IV, "table4-K"
Section prediction_section(const ReportData& d);                // Table V, "table5"
Section crossover_section(const ReportData& d, std::size_t k);  // Fig. 4, "fig4-K"
Section bandwidth_section(const ReportData& d, std::size_t k);  // % of copy, "bandwidth-K"

}  // namespace credit::report
