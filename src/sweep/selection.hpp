#pragma once
// Judging a selection model by what its picks cost on a measured sweep: per shape, the fastest
// measured candidate (staged, global_reread, registers, each clustered P); per model variant, the measured
// time of the candidate it picks; regret = T(pick) / T(fastest) - 1. Also binary accuracy (is
// the fastest cluster faster than the faster one-CTA kernel?), overall and outside the noise
// band measured by a second timing pass, and N* (per workload and M: the smallest width where a
// cluster wins) exact.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/prediction.hpp"
#include "core/results_file.hpp"

namespace credit {

// A candidate as "staged", "global_reread", "cluster P=8" or "partial P=16".
std::string candidate_label(const std::string& schedule, int p);

struct Pick {
  std::string schedule;
  int p = 1;
  bool cluster_predicted = false;  // the variant says a cluster beats the one-CTA kernels
};

struct MeasuredShape {
  std::string workload;
  long long m = 0, n = 0;
  std::map<std::string, double> t_ms;      // label -> first-pass median
  std::map<std::string, double> repeat_ms; // label -> second-pass median (when measured)
  std::string fastest;
  double t_fastest = 0;
  bool cluster_wins = false;  // fastest cluster faster than the faster one-CTA kernel
  bool tie = false;           // the two passes disagree on cluster_wins, or on the fastest
  bool has_both = false;      // at least one cluster and one one-CTA candidate passed
  double margin = 0;          // |ln(fastest cluster / faster one-CTA kernel)|, first pass, where has_both
};

// Shapes with at least one passed candidate, in sweep order.
std::vector<MeasuredShape> measured_shapes(const ResultsFile& sweep);

struct VariantStats {
  int shapes = 0;                  // shapes judged (the pick was measured)
  double geomean_regret = 0;       // geomean of T(pick)/T(fastest), minus 1
  double max_regret = 0;
  std::string worst;               // "workload MxN: pick ... vs fastest ..."
  int over_5pct = 0;
  int right = 0, judged = 0;                  // binary accuracy
  int right_outside = 0, judged_outside = 0;  // shapes outside the noise band
  // Wrong verdicts outside the noise band by the measured margin (MeasuredShape::margin): within 2%,
  // 2-5%, over 5%. What a miss of the accuracy goal is made of: near-ties or real losses.
  int wrong_within_2pct = 0, wrong_2_to_5pct = 0, wrong_over_5pct = 0;
  int n_star_exact = 0, n_star_groups = 0;    // (workload, M) groups
  int n_star_workloads_exact = 0, n_star_workloads = 0;  // workloads: exact at every M of the sweep
  int unmeasured_picks = 0;        // picks the sweep has no passed time for
};

struct SelectionRow {
  const MeasuredShape* shape = nullptr;
  std::map<std::string, Pick> picks;     // per variant
  std::map<std::string, double> regret;  // per variant; absent where the pick was not measured
};

struct SelectionReport {
  std::vector<SelectionRow> rows;
  std::map<std::string, VariantStats> stats;  // per variant
  int ties = 0, with_repeat = 0;
};

// picks: variant -> "workload MxN" -> pick. Shapes a variant has no pick for are left out of its
// statistics.
using PickTable = std::map<std::string, std::map<std::string, Pick>>;
std::string shape_key(const std::string& workload, long long m, long long n);
SelectionReport judge_selection(const std::vector<MeasuredShape>& shapes, const PickTable& picks);

// The variant that times the time model's shortlist (model::shortlist with tune's defaults) at the
// shape and keeps the fastest, as `credit tune` does: judged on a sweep by choosing with the
// second timing pass where the shape has one (an independent measurement, as tune's own would be)
// and paying the first pass's time, as every variant does.
inline constexpr const char* kTunedVariant = "tuned";
// That choice among the shortlisted labels the shape measured; none when it measured none of them.
std::optional<Pick> tuned_pick(const MeasuredShape& s, const std::vector<Pick>& shortlisted);

// The paper's decision from a Prediction with rows (paper, refined): best_p if any, else the
// paper's CUDA baseline; from a time-model Prediction: its pick.
Pick pick_of(const Prediction& p);

}  // namespace credit
