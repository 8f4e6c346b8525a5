// The C interface's launch: can_implement, workspace size and run on the caller's pointers and stream.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "capi/capi_support.hpp"
#include "credit/credit_c.h"
#include "credit/launch.hpp"

using namespace credit;
using capi::Failure;
using capi::guarded;

namespace {

// `count` pointers from `from`, which may be NULL only when count is 0.
template <class To, class From>
std::vector<To> pointers(From const* from, int count, const char* role) {
  if (count < 0) throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, std::string(role) + ": a negative count");
  if (count > 0 && !from) throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, std::string(role) + " is NULL");
  std::vector<To> v;
  for (int i = 0; i < count; ++i) v.push_back(static_cast<To>(const_cast<void*>(static_cast<const void*>(from[i]))));
  return v;
}

// The C tensors as credit::Tensors; run() checks the counts, nulls and alignment against the workload.
Tensors tensors_of(const credit_tensors_t* t) {
  capi::require(t, "tensors");
  Tensors out;
  out.inputs = pointers<const float*>(t->inputs, t->num_inputs, "inputs");
  out.col_params = pointers<const float*>(t->col_params, t->num_col_params, "col_params");
  out.row_params = pointers<const float*>(t->row_params, t->num_row_params, "row_params");
  out.outputs = pointers<void*>(t->outputs, t->num_outputs, "outputs");
  out.row_outputs = pointers<float*>(t->row_outputs, t->num_row_outputs, "row_outputs");
  return out;
}

// Throws Failure(NOT_SUPPORTED) with can_implement's reason when the problem cannot run here.
void require_implementable(const Problem& pb) {
  const Status s = can_implement(pb);
  if (!s) throw Failure(CREDIT_STATUS_NOT_SUPPORTED, pb.workload + " " + schedule_name(pb.schedule) + " P=" +
                                                         std::to_string(pb.p) + ": " + s.reason);
}

}  // namespace

extern "C" {

credit_status_t credit_can_implement(const credit_problem_t* problem, char* reason, size_t len) {
  if (reason && len > 0) reason[0] = '\0';
  const credit_status_t s = guarded("credit_can_implement", CREDIT_STATUS_CUDA_ERROR,
                                    [&] { require_implementable(capi::problem_of(problem)); });
  if (s != CREDIT_STATUS_OK && reason && len > 0) {
    const char* why = credit_last_error();
    const size_t k = std::min(len - 1, std::strlen(why));
    std::memcpy(reason, why, k);
    reason[k] = '\0';
  }
  return s;
}

credit_status_t credit_workspace_size(const credit_problem_t* problem, size_t* bytes) {
  return guarded("credit_workspace_size", CREDIT_STATUS_CUDA_ERROR, [&] {
    capi::require(bytes, "bytes");
    *bytes = workspace_bytes(capi::problem_of(problem));
  });
}

credit_status_t credit_run(const credit_problem_t* problem, const credit_tensors_t* tensors, void* workspace,
                           size_t workspace_bytes, void* stream) {
  return guarded("credit_run", CREDIT_STATUS_CUDA_ERROR, [&] {
    const Problem pb = capi::problem_of(problem);
    const Tensors t = tensors_of(tensors);
    require_implementable(pb);
    run(pb, t, workspace, workspace_bytes, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
