#include "capi/capi_support.hpp"

#include <cstring>

namespace credit::capi {

// The calling thread's last error; credit_last_error() hands out its characters.
thread_local std::string last_error;

credit_status_t set_error(credit_status_t s, const std::string& message) {
  try {
    last_error = message;
  } catch (...) {  // out of memory for the message itself: say that much
    last_error.clear();
  }
  return s;
}

void require(const void* p, const char* what) {
  if (!p) throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, std::string(what) + " is NULL");
}

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> all = [] {
    std::vector<Workload> v;
    for (const std::string& name : workload_names()) v.push_back({name, workload_tensors(name)});
    return v;
  }();
  return all;
}

const Workload& workload_named(const char* name) {
  require(name, "workload");
  std::string known;
  for (const Workload& w : workloads()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "unknown workload '" + std::string(name) + "' (known: " + known + ")");
}

std::string typed_workload(const char* workload, credit_dtype_t dtype) {
  require(workload, "workload");
  const std::string name(workload);
  if (name.find('@') != std::string::npos)
    throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "workload '" + name +
                                                      "': give the plain name and the element type as dtype");
  workload_named(workload);  // a plain name this build declares, named before any device is asked
  switch (dtype) {
    case CREDIT_DTYPE_F32: return name;
    case CREDIT_DTYPE_BF16: return name + "@bf16";
    case CREDIT_DTYPE_F16: return name + "@f16";
  }
  throw Failure(CREDIT_STATUS_INVALID_ARGUMENT,
                "dtype " + std::to_string(int(dtype)) +
                    " is none of CREDIT_DTYPE_F32 (0), CREDIT_DTYPE_BF16 (1), CREDIT_DTYPE_F16 (2)");
}

Problem problem_of(const credit_problem_t* problem) {
  require(problem, "problem");
  require(problem->schedule, "problem->schedule");
  Problem pb;
  pb.workload = typed_workload(problem->workload, problem->dtype);
  pb.schedule = parse_schedule(problem->schedule);  // std::invalid_argument naming the known ones
  pb.p = problem->p;
  pb.m = problem->m;
  pb.n = problem->n;
  if (pb.m < 1 || pb.n < 1)
    throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "M and N must be at least 1, got " + std::to_string(pb.m) +
                                                      " x " + std::to_string(pb.n));
  if (pb.p < 1) throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "p must be at least 1, got " + std::to_string(pb.p));
  return pb;
}

}  // namespace credit::capi

extern "C" const char* credit_last_error(void) { return credit::capi::last_error.c_str(); }
