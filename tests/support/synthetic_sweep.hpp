#pragma once
// Small synthetic sweeps for the report's tests: layernorm at M = 1024, chosen one-CTA and cluster
// times per width, a paper-model prediction per width (so the report compares the shape).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/prediction.hpp"
#include "core/results_file.hpp"
#include "core/sweep_point.hpp"
#include "report/report_data.hpp"
#include "support/sweep_point.hpp"

namespace synthetic {

// One measured width of a synthetic sweep: one-CTA kernels and clusters by P (median ms), the
// P the paper model predicts, and an optional second pass of the clusters.
struct Width {
  long long n;
  std::map<std::string, double> one_cta;  // schedule -> ms
  std::map<int, double> cluster;          // P -> ms
  std::optional<int> predicted = {};
  std::map<int, double> cluster_repeat = {};  // P -> second-pass ms (one-CTA kernels repeat exactly)
};

inline credit::SweepPoint point(long long n, const std::string& schedule, int p, double ms, double repeat) {
  credit::SweepPoint x = credit::test::sweep_point("layernorm", 1024, n, schedule, p, ms);
  x.time_ms = {ms, ms, ms, 1};
  x.repeat_ms = repeat;
  return x;
}

// A sweep of layernorm at M = 1024 whose predictions use global_reread as the CUDA baseline.
inline credit::ResultsFile sweep(const std::vector<Width>& widths) {
  credit::ResultsFile r;
  r.kind = "sweep";
  r.device.name = "Test GPU";
  r.device.uuid = "GPU-00000000-test";
  for (const auto& w : widths) {
    const bool two_passes = !w.cluster_repeat.empty();
    for (const auto& [s, ms] : w.one_cta) r.points.push_back(point(w.n, s, 1, ms, two_passes ? ms : 0));
    for (const auto& [p, ms] : w.cluster) {
      const auto it = w.cluster_repeat.find(p);
      const double repeat = it == w.cluster_repeat.end() ? ms : it->second;
      r.points.push_back(point(w.n, "cluster", p, ms, two_passes ? repeat : 0));
    }
    credit::Prediction pr;
    pr.workload = "layernorm";
    pr.model = "paper";
    pr.m = 1024;
    pr.n = w.n;
    pr.baseline = "global_reread";
    pr.best_p = w.predicted;
    r.predictions.push_back(pr);
  }
  return r;
}

inline credit::report::ReportData data_of(const std::vector<Width>& widths) {
  return credit::report::build_report({{"synthetic.json", sweep(widths)}});
}

inline std::map<std::string, double> reread(double ms) { return {{"global_reread", ms}}; }

}  // namespace synthetic
