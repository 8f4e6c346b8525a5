#pragma once
// Fitting the time model's constants (TimeModelParams) to measured kernel times (Nelder-Mead over
// the logarithms of the constants, so they stay positive). A pick depends on the order of the
// candidates within a shape more than on the level of all of them, so the loss is the squared log
// error centred per shape (the order) plus kAbsoluteWeight times the plain squared log error
// (the level): on the H200 training sweep this gave lower regret (1.3% against 1.8% geomean)
// than the plain error alone. Pure host code.
#include <functional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/results_file.hpp"
#include "core/static_figures.hpp"
#include "model/time_model_params.hpp"

namespace credit::model {

// One measured candidate: a passed staged, global_reread or cluster point.
struct FitSample {
  const StaticFigures* figures = nullptr;
  std::string workload;
  long long m = 0, n = 0;
  std::string schedule;
  int p = 1;
  double t_ms = 0;
  // The calibration of the machine that measured it (fit-model --own-calibrations: sweeps measured on
  // several machines, each with its own probes); nullptr: the fit's one calibration.
  const Calibration* calibration = nullptr;
};

// The passed kernel points of a sweep file, with the static figures `figures_of` gives for
// each workload (nullptr: the workload is unknown here and its points are left out).
std::vector<FitSample> fit_samples(const ResultsFile& sweep,
                                   const std::function<const StaticFigures*(const std::string&)>& figures_of);

inline constexpr double kAbsoluteWeight = 0.3;

// Root mean squared log error (natural log) of the model over the samples.
double rms_log_error(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p);
// The fit's loss (see above).
double selection_loss(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p);

// What a fit minimises (`fit-model --loss`). Centred: the loss above. Regret: the selector's own
// figure made smooth, so that the constants are judged by the picks they make rather than by every
// candidate's error (a shape's slowest candidates, which no pick is near, weigh as much as its
// contenders in the centred loss): the mean over shapes of the soft regret, sum_i w_i log(t_i / t_best)
// with t measured and w_i proportional to exp(-log(predicted_i / fastest predicted) / kRegretTemperature),
// plus kRegretAnchor times the centred loss squared, which keeps the constants the picks do not
// constrain (flat directions of the regret) near what the times say.
enum class FitLoss { Centred, Regret };
inline constexpr double kRegretTemperature = 0.03;  // candidates predicted 3% apart weigh e:1
inline constexpr double kRegretAnchor = 0.5;
// "centred" or "regret"; throws std::invalid_argument naming the choices.
FitLoss parse_fit_loss(const std::string& name);
const char* fit_loss_name(FitLoss loss);
double soft_regret_loss(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p);

// What a fit frees: the eighteen constants of the fixed costs, the CTAs' stream rates, the L2, the column
// parameters, the SMs' work and its serial share, and the share of a later wave's fixed cost. Every other constant
// was set by a rule of its own, judged on held-out sweeps (docs/decisions/time-model-constants.md): the fit holds it
// at the start's value, so the loss sees the model's whole form and refits only what the data decide.
bool is_fitted_constant(const TimeModelField& field);
// Where every fit starts: fixed values for the fitted constants (so that a fit is reproducible whatever constants
// are built in) and the built-in values of the set-by-rule ones.
TimeModelParams fit_start();

// A constant the fit keeps at a given value (`fit-model --hold NAME=VALUE`): a simpler form of
// the model fitted on new data, e.g. work_exposed_share=0 without that term.
struct HeldConstant {
  const TimeModelField* field = nullptr;
  double value = 0;
};
// Parses NAME=VALUE (a constant of kTimeModelFields, a finite non-negative value); throws
// std::invalid_argument naming what is wrong.
HeldConstant parse_held_constant(const std::string& spec);

// Fitted constants, starting from `start`; fitted_on is left to the caller.
TimeModelParams fit_params(const std::vector<FitSample>& samples, const Calibration& cal,
                           const TimeModelParams& start, const std::vector<HeldConstant>& held = {},
                           int iterations = 4000, FitLoss loss = FitLoss::Centred);

}  // namespace credit::model
