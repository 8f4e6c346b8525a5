#pragma once
// Figures derived from the joined data, computed where they are shown: speedups (paper Fig. 3),
// their geometric means (Table IV), the confusion matrix of the predictions (Table V) and how
// far a predicted crossover width lies from the measured one (Fig. 4).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "report/report_data.hpp"

namespace credit::report {

// The fastest baseline measured at a shape (paper: "best"; only where two or more were measured).
inline constexpr std::string_view kBest = "best";

// Baselines with data in this comparison: kCuda.key, then the frameworks present.
std::vector<std::string> baseline_keys(const Comparison& c);
// The key of the fastest baseline measured at this shape; empty unless at least two were
// measured there (the CUDA sweep covers more widths than a framework baseline file may).
std::optional<std::string> fastest_baseline(const ShapeResult& s);
// S_B = T_B / T_CREDIT for a baseline key or kBest; empty when either time is missing.
std::optional<double> speedup(const ShapeResult& s, std::string_view baseline);

// The P of the measured fastest schedule at a shape: the fastest cluster's when it beats the
// faster one-CTA kernel, else 1; empty when neither kind passed.
std::optional<int> measured_p(const ShapeResult& s);
// T(faster one-CTA kernel) / T(fastest cluster); empty when either is missing.
std::optional<double> cluster_speedup(const ShapeResult& s);
// The model whose picks the report draws: the time model where it was evaluated, else the
// refined, else the paper's variant; empty when no shape has a pick.
std::optional<std::string> pick_variant(const Comparison& c);

std::optional<double> geomean(const std::vector<double>& v);  // empty for no values
std::set<int> cluster_sizes(const Calibration& c);              // every P the calibration measured
std::vector<long long> widths(const Comparison& c);           // distinct N, ascending

struct Confusion {
  int tp = 0, fp = 0, tn = 0, fn = 0;  // predicted profitable x measured profitable
  int total() const { return tp + fp + tn + fn; }
  int right() const { return tp + tn; }
};
// Over the shapes predicted by `variant`; `cuda_schedule` non-empty keeps only the shapes whose
// CUDA baseline is that schedule ("staged" or "global_reread").
Confusion confusion(const Comparison& c, const std::string& variant, std::string_view cuda_schedule = "");

// How many tested widths (of this workload) the predicted N* lies above (+) or below (-) the
// measured one; empty when either is missing.
std::optional<int> width_steps(const Comparison& c, const std::string& workload, std::optional<long long> predicted,
                               std::optional<long long> measured);

}  // namespace credit::report
