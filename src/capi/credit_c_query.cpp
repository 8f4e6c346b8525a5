// The C interface's questions: errors, version, workloads and their tensors, which schedule.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "calibration/calibration_cache.hpp"
#include "capi/capi_support.hpp"
#include "credit/credit_c.h"
#include "credit/selector.hpp"
#include "gpu/device/device_query.hpp"

using namespace credit;
using capi::Failure;
using capi::guarded;
using capi::require;
using capi::Workload;
using capi::workload_named;
using capi::workloads;

namespace {

const std::vector<std::string>& role_names(const WorkloadTensors& t, credit_role_t role) {
  switch (role) {
    case CREDIT_ROLE_INPUT: return t.inputs;
    case CREDIT_ROLE_COL_PARAM: return t.col_params;
    case CREDIT_ROLE_ROW_PARAM: return t.row_params;
    case CREDIT_ROLE_OUTPUT: return t.outputs;
    case CREDIT_ROLE_ROW_OUTPUT: return t.row_outputs;
  }
  throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "role " + std::to_string(int(role)) + " is none of CREDIT_ROLE_*");
}

void check_shape(long long m, long long n) {
  if (m < 1 || n < 1)
    throw Failure(CREDIT_STATUS_INVALID_ARGUMENT,
                  "M and N must be at least 1, got " + std::to_string(m) + " x " + std::to_string(n));
}

void write_selection(const Selection& s, credit_selection_t* out) {
  *out = credit_selection_t{};
  std::snprintf(out->schedule, sizeof out->schedule, "%s", schedule_name(s.schedule));
  out->p = s.p;
  out->time_ms = s.time_ms;
  out->measured = s.measured ? 1 : 0;
}

// A calibration file as a Selector; one that does not read is bad input.
Selector selector_of_file(const std::string& path) {
  try {
    return Selector::from_calibration(path);
  } catch (const std::runtime_error& e) {
    throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, e.what());
  }
}

// The device's cached calibration, answering from its tuning cache first.
Selector selector_of_device(int device) {
  if (device < 0) throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, "device " + std::to_string(device) + " is negative");
  DeviceInfo dev;
  try {
    dev = gpu::query_device(device);
  } catch (const std::exception& e) {
    throw Failure(CREDIT_STATUS_CUDA_ERROR, "device " + std::to_string(device) + ": " + e.what());
  }
  const CachedCalibration cached = find_cached_calibration(dev);
  if (!cached.calibration)
    throw Failure(CREDIT_STATUS_NO_CALIBRATION,
                  "device " + std::to_string(device) + " (" + dev.name + "): " + cached.reason +
                      " (`credit calibrate --device " + std::to_string(device) +
                      "` measures and caches it in a minute or so; or select offline from a calibration file)");
  Selector s = selector_of_file(calibration_cache_path(dev).string());
  s.answer_from_tuning(Selector::tuning_cache_file(dev.uuid), dev.uuid);
  return s;
}

}  // namespace

extern "C" {

const char* credit_status_name(credit_status_t status) {
  switch (status) {
    case CREDIT_STATUS_OK: return "ok";
    case CREDIT_STATUS_INVALID_ARGUMENT: return "invalid argument";
    case CREDIT_STATUS_NOT_SUPPORTED: return "not supported";
    case CREDIT_STATUS_NO_CANDIDATE: return "no candidate";
    case CREDIT_STATUS_NO_CALIBRATION: return "no calibration";
    case CREDIT_STATUS_CUDA_ERROR: return "CUDA error";
    case CREDIT_STATUS_INTERNAL: return "internal error";
  }
  return "unknown status";
}

credit_status_t credit_version(int* major, int* minor, int* patch) {
  if (major) *major = CREDIT_C_VERSION_MAJOR;
  if (minor) *minor = CREDIT_C_VERSION_MINOR;
  if (patch) *patch = CREDIT_C_VERSION_PATCH;
  return capi::set_error(CREDIT_STATUS_OK, "");
}

const char* credit_version_string(void) { return CREDIT_C_VERSION; }

credit_status_t credit_workload_count(int* count) {
  return guarded("credit_workload_count", CREDIT_STATUS_INTERNAL, [&] {
    require(count, "count");
    *count = int(workloads().size());
  });
}

credit_status_t credit_workload_name(int index, const char** name) {
  return guarded("credit_workload_name", CREDIT_STATUS_INTERNAL, [&] {
    require(name, "name");
    const int count = int(workloads().size());
    if (index < 0 || index >= count)
      throw Failure(CREDIT_STATUS_INVALID_ARGUMENT,
                    "index " + std::to_string(index) + " is outside 0.." + std::to_string(count - 1));
    *name = workloads()[size_t(index)].name.c_str();
  });
}

credit_status_t credit_workload_info(const char* workload, credit_workload_info_t* out) {
  return guarded("credit_workload_info", CREDIT_STATUS_INTERNAL, [&] {
    require(out, "out");
    const WorkloadTensors& t = workload_named(workload).tensors;
    credit_workload_info_t info{};
    info.num_inputs = int(t.inputs.size());
    info.num_col_params = int(t.col_params.size());
    info.num_row_params = int(t.row_params.size());
    info.num_outputs = int(t.outputs.size());
    for (size_t i = 0; i < t.output_is_int8.size(); ++i)
      if (t.output_is_int8[i]) info.output_is_int8 |= 1u << i;
    info.num_row_outputs = int(t.row_outputs.size());
    *out = info;
  });
}

credit_status_t credit_workload_tensor_name(const char* workload, credit_role_t role, int index, const char** name) {
  return guarded("credit_workload_tensor_name", CREDIT_STATUS_INTERNAL, [&] {
    require(name, "name");
    const Workload& w = workload_named(workload);
    const std::vector<std::string>& names = role_names(w.tensors, role);
    if (index < 0 || index >= int(names.size()))
      throw Failure(CREDIT_STATUS_INVALID_ARGUMENT, w.name + " has " + std::to_string(names.size()) +
                                                        " tensor(s) of role " + std::to_string(int(role)) +
                                                        ", index " + std::to_string(index) + " is outside them");
    *name = names[size_t(index)].c_str();
  });
}

credit_status_t credit_select(const char* workload, credit_dtype_t dtype, long long m, long long n, int device,
                              credit_selection_t* out) {
  // A runtime_error left after the checks: no candidate can run the shape.
  return guarded("credit_select", CREDIT_STATUS_NO_CANDIDATE, [&] {
    require(out, "out");
    const std::string typed = capi::typed_workload(workload, dtype);
    check_shape(m, n);
    write_selection(selector_of_device(device).select(typed, m, n), out);
  });
}

credit_status_t credit_select_offline(const char* calibration_path, const char* workload, credit_dtype_t dtype,
                                      long long m, long long n, credit_selection_t* out) {
  return guarded("credit_select_offline", CREDIT_STATUS_NO_CANDIDATE, [&] {
    require(out, "out");
    require(calibration_path, "calibration_path");
    const std::string typed = capi::typed_workload(workload, dtype);
    check_shape(m, n);
    write_selection(selector_of_file(calibration_path).select(typed, m, n), out);
  });
}

}  // extern "C"
