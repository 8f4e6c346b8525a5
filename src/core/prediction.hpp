#pragma once
// A prediction at one shape: the paper model's rows per P, and the time model's candidates and pick. Written to and
// read from prediction files (io/json_prediction.hpp). Times are milliseconds.
#include <optional>
#include <string>
#include <vector>

namespace credit {

struct PredictionRow {
  int p = 0;
  bool legal = false;
  std::string reason;  // why illegal or rejected
  double waves = 0;
  double t_save_ms = 0, t_ctrl_ms = 0, t_replay_ms = 0, t_dsm_ms = 0, t_deposit_ms = 0;
  double dt_ms = 0;
  bool profitable = false;
};

// One candidate schedule of the time model at a shape: its predicted time and why.
struct CandidateTime {
  std::string schedule;  // "staged", "global_reread", "cluster", ...
  int p = 1;
  bool legal = false;
  std::string reason;       // why not legal
  double t_ms = 0;          // predicted time
  int ctas_per_sm = 0;      // occupancy
  long long resident_rows = 0;
  double waves = 0;
  double hbm_bytes = 0;     // bytes the model sends to DRAM
  double probe_scale = 1;   // the kernel probe's factor on the formula's time (1: none applied)
};

struct Prediction {
  std::string workload;
  std::string model;  // "paper", "refined"
  long long m = 0, n = 0;
  std::string baseline;  // "staged" or "global_reread"
  double t_b_ms = 0;
  std::vector<PredictionRow> rows;
  std::optional<int> best_p;  // empty when no legal P is profitable
  // The time model (model "time") only: every candidate's predicted time and the pick.
  std::vector<CandidateTime> candidates;
  std::string pick_schedule;  // "" when no candidate can run
  int pick_p = 0;
  double pick_ms = 0;
};

}  // namespace credit
