#pragma once
// Seed 001's metric: host completion time, from the submission call until
// cudaStreamSynchronize returns, warm, on the same input, median of many. And the CUDA graph
// a chain of launches is captured into once, so that a replay is one cudaGraphLaunch call;
// capture, instantiation and the first-launch upload happen before any timing.
#include <cuda_runtime.h>

#include <functional>

#include "core/run_stat.hpp"

namespace credit::gpu {

// Milliseconds per submission (the Stat of `samples` host-clock measurements after `warmup`).
Stat time_host_completion(const std::function<void()>& submit, cudaStream_t stream, int warmup, int samples);

class CapturedGraph {
 public:
  // Captures what `enqueue` launches on `stream` (relaxed capture mode), instantiates and
  // uploads it. `enqueue` must allocate nothing on first use (run it once before).
  CapturedGraph(const std::function<void()>& enqueue, cudaStream_t stream);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch(cudaStream_t stream) const;
  size_t nodes() const { return nodes_; }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  size_t nodes_ = 0;
};


}  // namespace credit::gpu
