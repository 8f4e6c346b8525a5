#pragma once
// One schedule's measured times against the time model's, point by point and per shape: how a term is judged,
// a candidate's or not.
// Host code, no GPU: `credit run-sweep --summarize FILE --calibration CAL --model-vs-measured SCHEDULE`.
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/results_file.hpp"
#include "model/time_model_params.hpp"
#include "sweep/model_selection.hpp"

namespace credit {

// The model's time beside the measured one at every passed point of `schedule` in the file (a sweep's or a
// bench's). Throws std::invalid_argument for a schedule the model has no term for.
std::vector<Residual> schedule_residuals(const ResultsFile& file, const std::string& source, const Calibration& cal,
                                         const TimeModelParams& params, const std::string& schedule);

// measured / predicted over the points of one shape: their count, median and 10th / 90th percentiles (the sorted
// values' elements at floor(n / 10) and floor(9 n / 10), no interpolation); points the model calls illegal are
// counted apart.
struct ShapeRatios {
  long long m = 0, n = 0;
  std::size_t points = 0, illegal = 0;
  double median = 0, p10 = 0, p90 = 0;
};
std::vector<ShapeRatios> ratios_by_shape(const std::vector<Residual>& rows);  // by M, then N

// The table: one line per shape, then every legal point's median and the RMS of log(measured / predicted).
std::string format_model_vs_measured(const std::string& schedule, const std::vector<Residual>& rows);

}  // namespace credit
