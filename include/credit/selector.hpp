#pragma once
// Which schedule to run a workload with at M x N: from a calibration (the time model's pick,
// as `credit predict --calibration FILE`) or from a recorded sweep (the measured fastest).
// Host code only: no GPU is needed to ask.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "credit/schedule.hpp"

namespace credit {

struct Calibration;  // calibration/calibration.hpp; used by the library's own Autotuner only

struct Selection {
  Schedule schedule = Schedule::GlobalReread;
  int p = 1;           // CTAs per row: 1 for the one-CTA schedules, the cluster size for Cluster
  double time_ms = 0;  // predicted (calibration) or measured median (sweep, tuning cache)
  // Answered by a measurement: a sweep's fastest, or `credit tune`'s pick from a tuning cache (at this M, or at
  // the nearest tuned M of the same N where the pick's class agrees); false for the time model's prediction.
  bool measured = false;
};

class Selector {
 public:
  // A calibration file (`credit calibrate --json`, `credit fit-model --json`, or
  // data/calibrations/h200.json), with its fitted constants (the H200's when it has
  // none). Throws std::runtime_error naming the file and field when it cannot be read.
  static Selector from_calibration(const std::string& path);
  // A sweep file (`credit run-sweep`): the fastest passed candidate (staged, global_reread,
  // registers, each cluster P) at each measured shape.
  static Selector from_sweep(const std::string& path);

  // Throws std::invalid_argument for an unknown workload, one the structural rules reject (a
  // negative control), M or N < 1, or (from a sweep) a shape it did not measure; std::runtime_error
  // when no candidate can run the shape.
  Selection select(std::string_view workload, long long m, long long n) const;

  // From a calibration: answer from `credit tune`'s measured picks first. `tuning_file` is a tuning cache
  // (tuning_cache_file(gpu_uuid), or a file `credit cache export` wrote); only entries measured on the GPU
  // `gpu_uuid` by this build answer (another GPU or build may rank the candidates differently), at their M or,
  // where M was not tuned, at the nearest tuned M of the same N when the picks around M are of one class (one-CTA,
  // cluster, split). Shapes the cache does not answer get the model's pick. A file that does not read is
  // ignored with a warning on stderr: the cache never stops a selection. Throws std::invalid_argument for a
  // Selector from a sweep (it answers by measurement already) or an empty gpu_uuid.
  Selector& answer_from_tuning(const std::string& tuning_file, const std::string& gpu_uuid);
  // Where this GPU's tuning cache is (the calibration cache's directory: $CREDIT_CACHE_DIR, else
  // $XDG_CACHE_HOME/credit, else ~/.cache/credit). Throws std::runtime_error when none can be named.
  static std::string tuning_cache_file(const std::string& gpu_uuid);
  // The candidates ranked fastest at M x N, fastest first: the k fastest and every other within
  // `band` of the fastest (0.1: at most 10% slower). From a calibration, by the time model (the
  // shortlist `credit tune` checks and times at the shape, keeping the fastest it measures; these
  // defaults are tune's); from a sweep, by the measured times. Fewer when fewer can run. Throws as
  // select(), and std::invalid_argument for k < 1 or a negative band.
  std::vector<Selection> shortlist(std::string_view workload, long long m, long long n, int k = 3,
                                   double band = 0.10) const;

  Selector(Selector&&) noexcept;
  Selector& operator=(Selector&&) noexcept;
  ~Selector();

  struct Impl;

 private:
  friend class Autotuner;
  // From a calibration record in memory (the Autotuner's); `source` names it in messages.
  static Selector from_calibration_record(Calibration cal, const std::string& source);
  explicit Selector(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace credit
