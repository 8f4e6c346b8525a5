#pragma once
// credit::Selector's state, shared by the selector (src/api/selector.cpp) and the Autotuner
// (src/api/autotune.cpp), which makes a Selector from a calibration it holds. Not installed.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "calibration/calibration.hpp"
#include "credit/selector.hpp"
#include "model/time_model_params.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit {

struct Selector::Impl {
  std::optional<Calibration> calibration;  // from a calibration: the time model
  TimeModelParams params;
  // From a sweep: every passed candidate of each shape, fastest first.
  std::map<std::tuple<std::string, long long, long long>, std::vector<Selection>> measured;
  std::string source;
  // From answer_from_tuning: the cache's entries and where they may answer.
  std::vector<TuningEntry> tuned;
  std::optional<TuningScope> scope;
};

}  // namespace credit
