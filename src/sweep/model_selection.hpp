#pragma once
// The selection models applied to recorded sweeps: the picks of the paper's and the refined
// variant (the predictions a sweep records) and of the time model (evaluated offline from a
// calibration), judged by regret; the time model fitted on sweeps, and its leave-one-workload-out
// cross-validation. Host code, no GPU.
#include <optional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/results_file.hpp"
#include "model/fit.hpp"
#include "model/time_model_params.hpp"
#include "sweep/selection.hpp"

namespace credit {

// "paper" and "refined" from the file's predictions; "time" from the time model at every
// measured shape (shapes of workloads this build does not declare are left out).
PickTable picks_for(const ResultsFile& sweep, const Calibration& cal, const TimeModelParams& params);

// Every passed kernel point of the sweeps as fit samples, and the fit.
struct ModelFit {
  TimeModelParams params;
  double rms_log_error = 0;  // on the samples it was fitted on
  size_t samples = 0;
  size_t uncovered = 0;  // points left out: the calibration has no resources for their kernel
};
// The fit descends from `start` (default: model::fit_start()), e.g. from the constants it refits, and
// minimises `loss` (model/fit.hpp).
// own_calibrations: each sweep's points are predicted with the calibration recorded in it (the probes of
// the machine that measured it), `cal` serving the constants' resets only; else every point with `cal`.
ModelFit fit_time_model(const std::vector<const ResultsFile*>& sweeps, const Calibration& cal,
                        const std::vector<std::string>& leave_out_workloads = {},
                        const std::vector<model::HeldConstant>& held = {},
                        const std::optional<TimeModelParams>& start = std::nullopt,
                        model::FitLoss loss = model::FitLoss::Centred, bool own_calibrations = false);

// The model's time beside the measured one at every passed kernel point of a sweep: where the
// model misses, for `fit-model --csv`.
struct Residual {
  std::string source;  // the sweep file's name
  std::string workload, schedule;
  long long m = 0, n = 0;
  int p = 1;
  double measured_ms = 0;
  double predicted_ms = 0;  // 0: the model calls the measured point illegal
  int ctas_per_sm = 0;
  double waves = 0;
};
std::vector<Residual> residuals(const ResultsFile& sweep, const std::string& source, const Calibration& cal,
                                const TimeModelParams& params);
std::string residuals_csv(const std::vector<Residual>& rows);
// Their root mean squared log error (an illegal prediction counts as a factor of e^2, as in the fit).
double rms_log_error(const std::vector<Residual>& rows);

// Leave one workload out: fit on the others, judge the time model's picks on its shapes.
struct Fold {
  std::string workload;
  ModelFit fit;
  VariantStats stats;  // of the "time" variant on the left-out workload's shapes
  double rms_log_error = 0;  // on the left-out workload's points
  VariantStats judged;  // on the left-out workload's shapes in the held-out sweeps (none: empty)
};
// `judged`: held-out sweeps, never fitted on; each fold also judges its workload's shapes there.
std::vector<Fold> leave_one_workload_out(const std::vector<const ResultsFile*>& sweeps, const Calibration& cal,
                                         const std::vector<const ResultsFile*>& judged = {},
                                         const std::vector<model::HeldConstant>& held = {},
                                         const std::optional<TimeModelParams>& start = std::nullopt,
                                         model::FitLoss loss = model::FitLoss::Centred);

// The statistics of several folds pooled as one set of shapes (regret geomean over all shapes).
VariantStats pool(const std::vector<SelectionReport>& reports, const std::string& variant);

// A text table of the variants' statistics (one line each) for the terminal.
std::string format_selection_stats(const SelectionReport& rep);
std::string format_stats_line(const std::string& name, const VariantStats& s);
// One line: each variant's wrong verdicts outside the noise band by the measured margin (empty if none judged).
std::string format_misses_by_margin(const std::map<std::string, VariantStats>& stats);

}  // namespace credit
