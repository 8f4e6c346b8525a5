#pragma once
// The report's lead: per workload and M, "cluster from N >= N*, with P = ...", measured. N* is
// the smallest width from which the fastest cluster beats the faster one-CTA kernel at every
// larger measured width; wins and losses that break that order are said, not smoothed over.
#include <optional>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "report/report_data.hpp"

namespace credit::report {

struct WidthResult {  // one measured width of a (workload, M) group
  long long n = 0;
  bool cluster_wins = false;
  bool tie = false;               // the two timing passes disagree on cluster_wins
  std::optional<int> best_p;      // fastest passed cluster P
  std::optional<double> speedup;  // T(faster one-CTA kernel) / T(fastest cluster)
  std::optional<int> measured_p;  // best_p where the cluster wins, else 1
  std::optional<int> model_p;     // the P the drawn model picks (1: a one-CTA kernel)
};

struct Lead {
  std::string workload;
  long long m = 0;
  std::vector<WidthResult> widths;  // ascending N
  std::optional<long long> n_star;  // empty: no width from which the cluster always wins
  // The widths the P and speedup columns describe: N* and above, else every winning width.
  std::vector<WidthResult> there() const;
};

// Widths in any order; ascending in the result.
Lead lead_of(std::string workload, long long m, std::vector<WidthResult> widths);
// One Lead per (workload, M) of the comparison, in its order; model_p from `variant`'s picks.
std::vector<Lead> leads(const Comparison& c, const std::optional<std::string>& variant);

// Table cells.
std::string from_cell(const Lead& l);     // "32768" or "never"
std::string p_cell(const Lead& l);        // "8" or "4 (32768-50257), 8 (65536)": runs of one P
std::string speedup_cell(const Lead& l);  // "1.44-1.65x"
std::string notes_cell(const Lead& l);    // exceptions to the order, noise, or the closest loss
std::string measured_cell(const Lead& l);  // "10 (4096-262144)"
std::string model_cell(const Lead& l);    // "9/10": widths where the model's P is the fastest

Section lead_section(const ReportData& d);  // id "lead"

}  // namespace credit::report
