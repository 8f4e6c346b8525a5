#pragma once
// What `credit validate` prints and writes: the regret of four selections on the seeded shapes of a
// validation file (a sweep whose shapes were drawn by core/shape_draw.hpp, every candidate measured, two timing
// passes), each against the fastest measured candidate of each shape:
//  - the time model (`credit predict`), from the file's calibration or a given one;
//  - tune: the model's shortlist, chosen by the second timing pass and paying the first (`credit tune`);
//  - the N-only rule (QuACK's cluster sizes): one CTA up to N = 32768, a cluster of 2 to 65536, 4 to 131072,
//    8 to 262144, else 16; half that for a 16-bit element type;
//  - the best single one-CTA schedule: the one of staged, global_reread, registers, registers_deep whose regret
//    geomean over these shapes is lowest (chosen on the shapes it is judged on, so the table flatters it).
// and the paired bootstrap of the model against the rule (sweep/bootstrap.hpp). Host code, no GPU.
#include <optional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/results_file.hpp"
#include "model/time_model_params.hpp"
#include "sweep/bootstrap.hpp"
#include "sweep/selection.hpp"

namespace credit {

inline constexpr const char* kModelSelection = "model";
inline constexpr const char* kTuneSelection = "tune";
inline constexpr const char* kRuleSelection = "N-only rule";
inline constexpr const char* kOneCtaSelection = "one-CTA";

// The rule's cluster size at width n (1: one CTA per row).
int n_only_rule_size(long long n, ElementType t);

// The rule's pick at a measured shape: one CTA as `staged`, else the cluster of its size; where that did not run
// (the row does not fit the cluster's shared memory), partial retention at the same size, then global_reread.
Pick n_only_rule_pick(const MeasuredShape& s, ElementType t);

struct ValidationReport {
  std::vector<MeasuredShape> shapes;
  SelectionReport selection;       // variants: kModelSelection, kTuneSelection, kRuleSelection, kOneCtaSelection
  std::string one_cta_schedule;    // which one-CTA schedule kOneCtaSelection is
  double tune_candidates = 0;      // mean candidates tune times a shape
  std::optional<PairedInterval> model_vs_rule;  // d = ln(1 + model's regret) - ln(1 + the rule's)
};

// Throws std::invalid_argument when the file holds no measured shape.
ValidationReport validation_report(const ResultsFile& file, const Calibration& cal, const TimeModelParams& params);

// The report as text: the draw (seed, shapes, ranges, type), the build and device, the table, the interval.
std::string format_validation(const ResultsFile& file, const ValidationReport& rep, const std::string& calibration_label);

// The time model with two sets of constants (each with its calibration's device inputs) judged on the same
// shapes: B's regret against A's, and whether the interval excludes zero.
struct ModelComparison {
  VariantStats a, b;
  PairedInterval b_vs_a;  // d = ln(1 + B's regret) - ln(1 + A's)
};
ModelComparison compare_models(const ResultsFile& file, const Calibration& a, const Calibration& b);
std::string format_comparison(const ModelComparison& c, const std::string& a_label, const std::string& b_label);

}  // namespace credit
