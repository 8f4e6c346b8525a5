#pragma once
// What the C interface's calls share: the thread's last error, the one place a C++ exception becomes a status,
// and the mapping of a credit_dtype_t onto the workload's typed name.
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "credit/credit_c.h"
#include "credit/launch.hpp"
#include "credit/workloads.hpp"

namespace credit::capi {

// A failure with its status, thrown by the C interface's own checks.
struct Failure : std::runtime_error {
  Failure(credit_status_t s, const std::string& what) : std::runtime_error(what), status(s) {}
  credit_status_t status;
};

// Records the thread's last error (the empty message on success) and returns `s`.
credit_status_t set_error(credit_status_t s, const std::string& message);

// Throws Failure(CREDIT_STATUS_INVALID_ARGUMENT) naming `what` when p is null.
void require(const void* p, const char* what);

struct Workload {
  std::string name;
  WorkloadTensors tensors;
};

// Every workload and its tensors, built once: the names handed out stay valid for the life of the process.
const std::vector<Workload>& workloads();
// The workload of that plain name; throws Failure(INVALID_ARGUMENT) naming the known ones otherwise.
const Workload& workload_named(const char* name);

// The workload's name in the dtype: "layernorm" (f32), "layernorm@bf16", "layernorm@f16". A name that already
// carries a type, or a dtype outside the enum, is an invalid argument.
std::string typed_workload(const char* workload, credit_dtype_t dtype);

// The C problem as credit::Problem (its workload typed, its schedule parsed); throws Failure on bad input.
Problem problem_of(const credit_problem_t* problem);

// Runs body(); returns CREDIT_STATUS_OK, or the status its exception maps to: Failure's own,
// std::invalid_argument as an invalid argument, any other std::runtime_error as `runtime_status`, anything
// else as internal. The message says which call failed.
template <class Body>
credit_status_t guarded(const char* call, credit_status_t runtime_status, Body&& body) noexcept {
  try {
    body();
    return set_error(CREDIT_STATUS_OK, "");
  } catch (const Failure& e) {
    return set_error(e.status, std::string(call) + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    return set_error(CREDIT_STATUS_INVALID_ARGUMENT, std::string(call) + ": " + e.what());
  } catch (const std::runtime_error& e) {
    return set_error(runtime_status, std::string(call) + ": " + e.what());
  } catch (const std::exception& e) {
    return set_error(CREDIT_STATUS_INTERNAL, std::string(call) + ": " + e.what());
  } catch (...) {
    return set_error(CREDIT_STATUS_INTERNAL, std::string(call) + ": an unknown exception");
  }
}

}  // namespace credit::capi
