#pragma once
// Launching a credit kernel on the caller's device buffers, the caller's stream and the caller's
// workspace, on the current CUDA device (cudaSetDevice), as CUTLASS's can_implement /
// get_workspace_size / run: nothing is allocated and nothing is shared between launches, so two
// streams or two devices can run at once, each with its own workspace.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "credit/schedule.hpp"

namespace credit {

struct Problem {
  std::string workload;  // workload_names(), or one in bf16 / fp16: "layernorm@bf16", "layernorm@f16" (Tensors)
  Schedule schedule = Schedule::GlobalReread;
  int p = 1;             // CTAs per row (Selection::p)
  long long m = 0, n = 0;
};

// Device pointers, row-major, in the order of workload_tensors(problem.workload). Inputs, column parameters and
// outputs 16-byte aligned (as cudaMalloc returns them), per-row scalars 4-byte aligned: run() refuses others.
// For a workload named "<name>@bf16" (or "@f16") the inputs, column parameters and float outputs hold
// __nv_bfloat16 (__half) elements, passed through these pointers cast; per-row scalars stay float, int8 int8; the
// staged, global_reread, cluster and register-resident schedules run them (can_implement says so for the others).
struct Tensors {
  std::vector<const float*> inputs;
  std::vector<const float*> col_params;
  std::vector<const float*> row_params;
  std::vector<void*> outputs;  // float*, or int8_t* where output_is_int8
  std::vector<float*> row_outputs;
};

struct Status {
  bool ok = false;
  std::string reason;  // why not, when !ok
  explicit operator bool() const { return ok; }
};

// Whether the schedule can run the problem on the current device, and why not (shared memory,
// cluster sizes, occupancy, index ranges).
Status can_implement(const Problem& problem);

// Bytes of device workspace run() needs (0 for the one-CTA and clustered kernels).
std::size_t workspace_bytes(const Problem& problem);

// Enqueues the kernel(s) on `stream`; returns without synchronising. The workspace, of at least
// workspace_bytes(problem) bytes, must be zero-filled (cudaMemsetAsync) before its first run of a
// problem; each run leaves it ready for the next run of the same problem without clearing (so a
// run can be captured in a CUDA graph and replayed). A workspace serves one run at a time.
// split_global's CTAs wait for their row's other CTAs, which can_implement counts on the whole device:
// do not overlap it with another split_global run or a kernel that holds SMs for long (its row
// barrier then traps after 20 s, a failed launch, rather than hang).
// Throws std::invalid_argument when can_implement says no or the tensors or workspace do not
// match (nothing is launched), std::runtime_error when a CUDA call fails.
void run(const Problem& problem, const Tensors& tensors, void* workspace, std::size_t workspace_bytes,
         cudaStream_t stream);

}  // namespace credit
