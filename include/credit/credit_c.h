#ifndef CREDIT_CREDIT_C_H
#define CREDIT_CREDIT_C_H
/* credit's C interface (libcredit_c.so): the workloads and their tensors, which schedule to run one with at
 * M x N, and the launch on the caller's device pointers, workspace and stream. C99, for bindings (the Python
 * package in python/ calls it through ctypes).
 *
 * Every call returns a credit_status_t; on anything but CREDIT_STATUS_OK, credit_last_error() holds a message
 * naming the problem (per thread, until this thread's next call). No C++ exception leaves the library. Strings
 * the library returns (names, messages) stay valid for the life of the process, except credit_last_error()'s,
 * which the thread's next call replaces. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum credit_status {
  CREDIT_STATUS_OK = 0,
  CREDIT_STATUS_INVALID_ARGUMENT = 1, /* a null pointer, an unknown workload or dtype, M or N < 1, a file that does
                                         not read, tensors that do not match the workload */
  CREDIT_STATUS_NOT_SUPPORTED = 2,    /* this device or schedule cannot run the problem (can_implement says why) */
  CREDIT_STATUS_NO_CANDIDATE = 3,     /* no schedule can run the shape */
  CREDIT_STATUS_NO_CALIBRATION = 4,   /* the device has no cached calibration: run `credit calibrate` once */
  CREDIT_STATUS_CUDA_ERROR = 5,       /* no usable GPU, or a CUDA call failed */
  CREDIT_STATUS_INTERNAL = 6          /* anything else (out of memory, a bug) */
} credit_status_t;

/* The element type of a problem's inputs, column parameters and per-element float outputs. Per-row scalars stay
 * float; int8 outputs stay int8. */
typedef enum credit_dtype { CREDIT_DTYPE_F32 = 0, CREDIT_DTYPE_BF16 = 1, CREDIT_DTYPE_F16 = 2 } credit_dtype_t;

/* Why the calling thread's last call failed; "" after a call that succeeded. Never NULL. */
const char* credit_last_error(void);
/* "ok", "invalid argument", ...; "unknown status" for any other value. Never NULL. */
const char* credit_status_name(credit_status_t status);

/* The library's version (the CMake project's). Any pointer may be NULL. */
credit_status_t credit_version(int* major, int* minor, int* patch);
const char* credit_version_string(void); /* "0.1.0"; never NULL */

/* The workloads, in declaration order (`credit list` prints their math). Each runs in every dtype. */
credit_status_t credit_workload_count(int* count);
credit_status_t credit_workload_name(int index, const char** name);

/* The tensors a launch of a workload takes, by role, in credit_tensors_t's order. Shapes: inputs and outputs
 * [M x N], column parameters [N], row parameters and row outputs [M]. */
typedef enum credit_role {
  CREDIT_ROLE_INPUT = 0,
  CREDIT_ROLE_COL_PARAM = 1,
  CREDIT_ROLE_ROW_PARAM = 2,
  CREDIT_ROLE_OUTPUT = 3,
  CREDIT_ROLE_ROW_OUTPUT = 4
} credit_role_t;

typedef struct credit_workload_info {
  int num_inputs;
  int num_col_params;
  int num_row_params;
  int num_outputs;
  unsigned output_is_int8; /* bit i set: output i is int8 (else of the problem's dtype) */
  int num_row_outputs;
} credit_workload_info_t;

credit_status_t credit_workload_info(const char* workload, credit_workload_info_t* out);
/* The name of the index-th tensor of a role ("x", "gamma", "scale", ...). */
credit_status_t credit_workload_tensor_name(const char* workload, credit_role_t role, int index, const char** name);

/* Which schedule runs the workload at M x N. */
typedef struct credit_selection {
  char schedule[32]; /* "staged", "cluster", "split_global", ... (`credit list`, docs/design.md) */
  int p;             /* CTAs per row: 1 for the one-CTA schedules, else the cluster size or split */
  double time_ms;    /* predicted by the time model, or measured (measured != 0) */
  int measured;      /* 1: a measured pick from the tuning cache; 0: the time model's */
} credit_selection_t;

/* On CUDA device `device`: its tuning cache's measured pick when the cache holds the shape (`credit tune`), else
 * the time model's pick from the device's cached calibration (`credit calibrate`). Nothing is measured here: with
 * no cached calibration the call returns CREDIT_STATUS_NO_CALIBRATION and says what to run. */
credit_status_t credit_select(const char* workload, credit_dtype_t dtype, long long m, long long n, int device,
                              credit_selection_t* out);
/* No GPU needed: the time model's pick from a calibration file (e.g. share/credit/calibrations/h100.json). */
credit_status_t credit_select_offline(const char* calibration_path, const char* workload, credit_dtype_t dtype,
                                      long long m, long long n, credit_selection_t* out);

/* One launch's problem: a workload in a dtype, run with a schedule (by name, as credit_selection_t holds it) and
 * p CTAs per row at M x N. */
typedef struct credit_problem {
  const char* workload;
  credit_dtype_t dtype;
  const char* schedule;
  int p;
  long long m;
  long long n;
} credit_problem_t;

/* Row-major device pointers, per role in the order credit_workload_tensor_name lists them; each count must be the
 * workload's. Inputs, column parameters and outputs hold the problem's dtype (int8 where output_is_int8) and are
 * 16-byte aligned; row parameters and row outputs are float, 4-byte aligned. */
typedef struct credit_tensors {
  const void* const* inputs;
  int num_inputs;
  const void* const* col_params;
  int num_col_params;
  const float* const* row_params;
  int num_row_params;
  void* const* outputs;
  int num_outputs;
  float* const* row_outputs;
  int num_row_outputs;
} credit_tensors_t;

/* On the current CUDA device: CREDIT_STATUS_OK when the schedule can run the problem, else
 * CREDIT_STATUS_NOT_SUPPORTED with the reason, also written (truncated, NUL-terminated) to reason[0..len) when
 * reason is not NULL. */
credit_status_t credit_can_implement(const credit_problem_t* problem, char* reason, size_t len);
/* Bytes of device workspace credit_run needs (0 for the one-CTA and clustered schedules). */
credit_status_t credit_workspace_size(const credit_problem_t* problem, size_t* bytes);
/* Enqueues the kernel(s) on `stream` (a cudaStream_t; NULL: the default stream) on the current device and returns
 * without synchronising. The workspace, of at least credit_workspace_size bytes, must be zero-filled before its
 * first run of a problem; each run leaves it ready for the next run of the same problem (so a CUDA graph can
 * capture and replay the launch). A workspace serves one run at a time. Nothing is launched when the call fails
 * with anything but CREDIT_STATUS_CUDA_ERROR. */
credit_status_t credit_run(const credit_problem_t* problem, const credit_tensors_t* tensors, void* workspace,
                           size_t workspace_bytes, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* CREDIT_CREDIT_C_H */
