#pragma once
// Selection on the current GPU that tunes on first use when asked, as Triton's autotuner does: the tuning
// cache's measured pick when it holds the shape (`credit tune` or an earlier first use wrote it); else, with
// tune_on_first_use, the time model's shortlist checked and timed at the shape now (as `credit tune`: a few
// candidates, each against the CPU reference, then timed), the fastest recorded in the cache and returned;
// else the model's pick. Each answer is kept for the life of the Autotuner, so a shape is tuned once per process
// and once per cache. Needs a GPU (credit::credit).
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

#include "credit/selector.hpp"

namespace credit {

struct AutotuneOptions {
  bool tune_on_first_use = false;  // off by default: tuning runs kernels on the GPU for a fraction of a second
  std::string calibration;         // a calibration of this GPU model; empty: the GPU's cached one (credit
                                   // calibrate; measured now, for a minute or so, when there is none)
  std::string tuning_file;         // empty: the GPU's tuning cache (Selector::tuning_cache_file)
  int samples = 10, warmup = 2;    // timing of each shortlisted candidate
};

class Autotuner {
 public:
  // On the current CUDA device (cudaSetDevice). Throws std::runtime_error when there is no usable GPU or the
  // calibration cannot be read or measured.
  explicit Autotuner(AutotuneOptions options = {});
  ~Autotuner();
  Autotuner(const Autotuner&) = delete;
  Autotuner& operator=(const Autotuner&) = delete;

  // Throws as Selector::select; std::runtime_error when a first-use tuning finds no candidate that passes its
  // check (nothing is recorded then).
  Selection select(std::string_view workload, long long m, long long n);
  // Shapes tuned by this Autotuner so far (not those the cache answered).
  int tuned_count() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace credit
