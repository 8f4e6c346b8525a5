// The fit is reproducible: the command data/model-fit/h200/README.md documents, run on the fit data shipped there,
// returns constants that pick as the ones it returned when they were recorded (refit.json beside the data), on any
// machine: the same picks on at least 99% of the shapes of every sweep (a last-bit difference of another libm may
// move a Nelder-Mead step), regret within 0.1 point. Slow (a full fit, minutes on two cores): its own CTest entry,
// model_refit.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "catch.hpp"
#include "io/json_records.hpp"
#include "sweep/model_selection.hpp"
#include "sweep/selection.hpp"

using namespace credit;

namespace {

const std::filesystem::path kFitData = std::filesystem::path(CREDIT_SOURCE_DIR) / "data" / "model-fit" / "h200";

std::vector<std::string> fit_sweeps() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kFitData)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("sweep-", 0) == 0) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());  // the shell's order of the documented glob in the C locale
  return out;
}

}  // namespace

TEST_CASE("a refit on the shipped fit data picks as the recorded refit does", "[refit]") {
  const std::vector<std::string> paths = fit_sweeps();
  REQUIRE(paths.size() == 16);
  std::vector<ResultsFile> sweeps;
  for (const auto& p : paths) sweeps.push_back(read_results(p));
  std::vector<const ResultsFile*> ptrs;
  for (const auto& s : sweeps) ptrs.push_back(&s);
  const ResultsFile cal_file = read_results((kFitData / "calibration-fit.json").string());
  REQUIRE(cal_file.calibration);
  const Calibration& cal = *cal_file.calibration;

  const ModelFit refit = fit_time_model(ptrs, cal);
  const ResultsFile recorded = read_results((kFitData / "refit.json").string());
  REQUIRE(recorded.calibration);
  REQUIRE(recorded.calibration->time_model);
  const TimeModelParams shipped = *recorded.calibration->time_model;
  for (size_t i = 0; i < sweeps.size(); ++i) {
    INFO(paths[i]);
    const auto shapes = measured_shapes(sweeps[i]);
    const PickTable refit_picks = picks_for(sweeps[i], cal, refit.params);
    const PickTable shipped_picks = picks_for(sweeps[i], cal, shipped);
    const VariantStats a = judge_selection(shapes, refit_picks).stats.at("time");
    const VariantStats b = judge_selection(shapes, shipped_picks).stats.at("time");
    CHECK(a.shapes == b.shapes);
    CHECK(std::abs(a.geomean_regret - b.geomean_regret) <= 0.001);  // 0.1 point
    int same = 0, judged = 0;
    for (const auto& [key, pick] : shipped_picks.at("time")) {
      ++judged;
      const auto& other = refit_picks.at("time");
      const auto it = other.find(key);
      same += it != other.end() && it->second.schedule == pick.schedule && it->second.p == pick.p;
    }
    CHECK(same >= 0.99 * judged);
  }
}
