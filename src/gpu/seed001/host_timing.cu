#include "gpu/seed001/host_timing.hpp"

#include <chrono>
#include <vector>

#include "gpu/device/cuda_check.hpp"
#include "gpu/measure/timing.hpp"

namespace credit::gpu {

Stat time_host_completion(const std::function<void()>& submit, cudaStream_t stream, int warmup, int samples) {
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < warmup; ++i) {
    submit();
    CREDIT_CUDA(cudaStreamSynchronize(stream));
  }
  std::vector<double> ms;
  ms.reserve(size_t(samples));
  for (int i = 0; i < samples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    submit();
    CREDIT_CUDA(cudaStreamSynchronize(stream));
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  CREDIT_CUDA(cudaGetLastError());
  return summarize(std::move(ms));
}

CapturedGraph::CapturedGraph(const std::function<void()>& enqueue, cudaStream_t stream) {
  CREDIT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  try {
    enqueue();
  } catch (...) {  // end the capture so that the stream stays usable, then report the error
    cudaGraph_t g = nullptr;
    cudaStreamEndCapture(stream, &g);
    if (g) cudaGraphDestroy(g);
    cudaGetLastError();
    throw;
  }
  CREDIT_CUDA(cudaStreamEndCapture(stream, &graph_));
  CREDIT_CUDA(cudaGraphGetNodes(graph_, nullptr, &nodes_));
  CREDIT_CUDA(cudaGraphInstantiate(&exec_, graph_, 0));
  CREDIT_CUDA(cudaGraphUpload(exec_, stream));
  CREDIT_CUDA(cudaStreamSynchronize(stream));
}

CapturedGraph::~CapturedGraph() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (graph_) cudaGraphDestroy(graph_);
}

void CapturedGraph::launch(cudaStream_t stream) const { CREDIT_CUDA(cudaGraphLaunch(exec_, stream)); }

}  // namespace credit::gpu
