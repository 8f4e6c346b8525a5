#pragma once
// The one CUDA error check: throws with the file, the line and the call that failed.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace credit::gpu {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return;
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

}  // namespace credit::gpu

#define CREDIT_CUDA(call) ::credit::gpu::check_cuda((call), #call, __FILE__, __LINE__)
// After every launch: a bad configuration surfaces here, a fault at the next synchronisation.
#define CREDIT_CUDA_LAUNCHED() \
  ::credit::gpu::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
