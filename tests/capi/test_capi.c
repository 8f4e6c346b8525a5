/* The C interface without a GPU, compiled as C99 (the header is C): version, workloads and their tensors, offline
 * selection from a fixture calibration, and every error path's status and message.
 *   credit_capi_tests FIXTURE_DIR */
#include <credit/credit_c.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

/* The call returned `want` and its message holds `needle`. */
static void expect(credit_status_t got, credit_status_t want, const char* needle, int line) {
  const char* msg = credit_last_error();
  if (got != want || strstr(msg, needle) == NULL) {
    fprintf(stderr, "line %d: expected %s with a message naming \"%s\", got %s: \"%s\"\n", line,
            credit_status_name(want), needle, credit_status_name(got), msg);
    ++failures;
  }
}
#define EXPECT(call, status, needle) expect((call), (status), (needle), __LINE__)

static char fixture_path[4096];
static const char* fixture(const char* dir, const char* name) {
  snprintf(fixture_path, sizeof fixture_path, "%s/%s", dir, name);
  return fixture_path;
}

static void test_version(void) {
  int major = -1, minor = -1, patch = -1;
  char text[64];
  CHECK(credit_version(&major, &minor, &patch) == CREDIT_STATUS_OK);
  snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
  CHECK(strcmp(text, credit_version_string()) == 0);
  CHECK(strcmp(credit_version_string(), CREDIT_EXPECTED_VERSION) == 0);
  CHECK(credit_version(NULL, NULL, NULL) == CREDIT_STATUS_OK);
  CHECK(strcmp(credit_last_error(), "") == 0);
}

static void test_workloads(void) {
  int count = 0, i, found = 0;
  const char* name = NULL;
  credit_workload_info_t info;
  CHECK(credit_workload_count(&count) == CREDIT_STATUS_OK);
  CHECK(count >= 5);
  for (i = 0; i < count; ++i) {
    CHECK(credit_workload_name(i, &name) == CREDIT_STATUS_OK && name != NULL);
    if (name && strcmp(name, "layernorm") == 0) ++found;
  }
  CHECK(found == 1);

  CHECK(credit_workload_info("layernorm", &info) == CREDIT_STATUS_OK);
  CHECK(info.num_inputs == 1 && info.num_col_params == 2 && info.num_row_params == 0 && info.num_outputs == 1 &&
        info.output_is_int8 == 0 && info.num_row_outputs == 0);
  CHECK(credit_workload_tensor_name("layernorm", CREDIT_ROLE_COL_PARAM, 1, &name) == CREDIT_STATUS_OK &&
        strcmp(name, "beta") == 0);
  CHECK(credit_workload_tensor_name("layernorm", CREDIT_ROLE_OUTPUT, 0, &name) == CREDIT_STATUS_OK &&
        strcmp(name, "y") == 0);

  CHECK(credit_workload_info("quant_int8", &info) == CREDIT_STATUS_OK);
  CHECK(info.num_outputs == 1 && info.output_is_int8 == 1u && info.num_row_outputs == 1);
  CHECK(credit_workload_tensor_name("quant_int8", CREDIT_ROLE_ROW_OUTPUT, 0, &name) == CREDIT_STATUS_OK &&
        strcmp(name, "scale") == 0);

  CHECK(credit_workload_info("add_rmsnorm", &info) == CREDIT_STATUS_OK);
  CHECK(info.num_inputs == 2 && info.num_col_params == 1 && info.num_outputs == 2 && info.output_is_int8 == 0);
  CHECK(credit_workload_tensor_name("add_rmsnorm", CREDIT_ROLE_OUTPUT, 0, &name) == CREDIT_STATUS_OK &&
        strcmp(name, "h") == 0);
}

static void test_select_offline(const char* dir) {
  credit_selection_t s;
  /* What `credit predict` picks from the same files (tests/CMakeLists.txt's cli_predict_* tests). */
  CHECK(credit_select_offline(fixture(dir, "h100-calibration-bf16.json"), "rmsnorm", CREDIT_DTYPE_BF16, 4096, 65536,
                              &s) == CREDIT_STATUS_OK);
  CHECK(strcmp(s.schedule, "cluster") == 0 && s.p == 2 && s.measured == 0);
  CHECK(s.time_ms > 0.3596 && s.time_ms < 0.3598);
  /* The same shape in f32 moves twice the bytes: a slower pick. */
  CHECK(credit_select_offline(fixture(dir, "h100-calibration-bf16.json"), "rmsnorm", CREDIT_DTYPE_F32, 4096, 65536,
                              &s) == CREDIT_STATUS_OK);
  CHECK(s.time_ms > 0.5);
  CHECK(credit_select_offline(fixture(dir, "h200-calibration-with-model.json"), "wvar_bwd", CREDIT_DTYPE_F32, 4096,
                              200000, &s) == CREDIT_STATUS_OK);
  CHECK(strcmp(s.schedule, "cluster") == 0 && s.p == 16);
  CHECK(credit_select_offline(fixture(dir, "h200-calibration-with-model.json"), "layernorm", CREDIT_DTYPE_F32, 4096,
                              2048, &s) == CREDIT_STATUS_OK);
  CHECK(strncmp(s.schedule, "registers", 9) == 0 && s.p == 1);
  CHECK(strcmp(credit_last_error(), "") == 0);
}

static void test_errors(const char* dir) {
  char cal[4096];
  credit_selection_t s;
  credit_workload_info_t info;
  const char* name = NULL;
  int count = 0;
  size_t bytes = 0;
  char reason[16];
  credit_problem_t pb = {"layernorm", CREDIT_DTYPE_F32, "staged", 1, 64, 4096};
  credit_tensors_t none;
  memset(&none, 0, sizeof none);
  snprintf(cal, sizeof cal, "%s", fixture(dir, "h200-calibration-with-model.json"));

  EXPECT(credit_workload_count(NULL), CREDIT_STATUS_INVALID_ARGUMENT, "count is NULL");
  EXPECT(credit_workload_name(-1, &name), CREDIT_STATUS_INVALID_ARGUMENT, "index -1 is outside");
  EXPECT(credit_workload_name(1000, &name), CREDIT_STATUS_INVALID_ARGUMENT, "index 1000 is outside");
  EXPECT(credit_workload_name(0, NULL), CREDIT_STATUS_INVALID_ARGUMENT, "name is NULL");
  EXPECT(credit_workload_info("nosuch", &info), CREDIT_STATUS_INVALID_ARGUMENT, "unknown workload 'nosuch' (known: ");
  EXPECT(credit_workload_info(NULL, &info), CREDIT_STATUS_INVALID_ARGUMENT, "workload is NULL");
  EXPECT(credit_workload_info("layernorm", NULL), CREDIT_STATUS_INVALID_ARGUMENT, "out is NULL");
  EXPECT(credit_workload_tensor_name("layernorm", CREDIT_ROLE_INPUT, 1, &name), CREDIT_STATUS_INVALID_ARGUMENT,
         "index 1 is outside");
  EXPECT(credit_workload_tensor_name("layernorm", (credit_role_t)9, 0, &name), CREDIT_STATUS_INVALID_ARGUMENT,
         "role 9");

  EXPECT(credit_select_offline(cal, "nosuch", CREDIT_DTYPE_F32, 64, 4096, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "unknown workload 'nosuch'");
  EXPECT(credit_select_offline(cal, "layernorm", (credit_dtype_t)7, 64, 4096, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "dtype 7 is none of");
  EXPECT(credit_select_offline(cal, "layernorm@bf16", CREDIT_DTYPE_BF16, 64, 4096, &s),
         CREDIT_STATUS_INVALID_ARGUMENT, "give the plain name");
  EXPECT(credit_select_offline(cal, "layernorm", CREDIT_DTYPE_F32, 0, 4096, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "M and N must be at least 1, got 0 x 4096");
  EXPECT(credit_select_offline(cal, "layernorm", CREDIT_DTYPE_F32, 64, -1, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "got 64 x -1");
  EXPECT(credit_select_offline(fixture(dir, "nosuch.json"), "layernorm", CREDIT_DTYPE_F32, 64, 4096, &s),
         CREDIT_STATUS_INVALID_ARGUMENT, "nosuch.json");
  EXPECT(credit_select_offline(fixture(dir, "sweep-paper-torch-h200.json"), "layernorm", CREDIT_DTYPE_F32, 64, 4096,
                               &s),
         CREDIT_STATUS_INVALID_ARGUMENT, "sweep-paper-torch-h200.json");
  EXPECT(credit_select_offline(NULL, "layernorm", CREDIT_DTYPE_F32, 64, 4096, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "calibration_path is NULL");
  EXPECT(credit_select_offline(cal, NULL, CREDIT_DTYPE_F32, 64, 4096, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "workload is NULL");
  EXPECT(credit_select_offline(cal, "layernorm", CREDIT_DTYPE_F32, 64, 4096, NULL), CREDIT_STATUS_INVALID_ARGUMENT,
         "out is NULL");
  /* bf16 from a calibration written before the bf16 kernels: no candidate, and the message says what it lacks. */
  EXPECT(credit_select_offline(cal, "layernorm", CREDIT_DTYPE_BF16, 4096, 65536, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "no kernel resources for layernorm@bf16 ");
  EXPECT(credit_select_offline(cal, "layernorm", CREDIT_DTYPE_F16, 4096, 65536, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "no kernel resources for layernorm@f16 ");

  EXPECT(credit_select("layernorm", CREDIT_DTYPE_F32, 64, 4096, -1, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "device -1 is negative");
  EXPECT(credit_select("layernorm", CREDIT_DTYPE_F32, 64, 4096, 99, &s), CREDIT_STATUS_CUDA_ERROR, "device 99");
  EXPECT(credit_select("nosuch", CREDIT_DTYPE_F32, 64, 4096, 0, &s), CREDIT_STATUS_INVALID_ARGUMENT,
         "unknown workload 'nosuch'");

  EXPECT(credit_can_implement(NULL, reason, sizeof reason), CREDIT_STATUS_INVALID_ARGUMENT, "problem is NULL");
  CHECK(strcmp(reason, "credit_can_impl") == 0); /* the message, cut to the buffer's 15 characters */
  pb.schedule = "nosuch";
  EXPECT(credit_can_implement(&pb, NULL, 0), CREDIT_STATUS_INVALID_ARGUMENT, "unknown schedule 'nosuch'");
  pb.schedule = NULL;
  EXPECT(credit_workspace_size(&pb, &bytes), CREDIT_STATUS_INVALID_ARGUMENT, "problem->schedule is NULL");
  pb.schedule = "staged";
  pb.m = 0;
  EXPECT(credit_workspace_size(&pb, &bytes), CREDIT_STATUS_INVALID_ARGUMENT, "M and N must be at least 1");
  pb.m = 64;
  pb.p = 0;
  EXPECT(credit_workspace_size(&pb, &bytes), CREDIT_STATUS_INVALID_ARGUMENT, "p must be at least 1");
  pb.p = 1;
  EXPECT(credit_workspace_size(&pb, NULL), CREDIT_STATUS_INVALID_ARGUMENT, "bytes is NULL");
  pb.dtype = (credit_dtype_t)-1;
  EXPECT(credit_workspace_size(&pb, &bytes), CREDIT_STATUS_INVALID_ARGUMENT, "dtype -1");
  pb.dtype = CREDIT_DTYPE_F32;
  EXPECT(credit_run(&pb, NULL, NULL, 0, NULL), CREDIT_STATUS_INVALID_ARGUMENT, "tensors is NULL");
  none.num_inputs = 1;
  EXPECT(credit_run(&pb, &none, NULL, 0, NULL), CREDIT_STATUS_INVALID_ARGUMENT, "inputs is NULL");
  none.num_inputs = -1;
  EXPECT(credit_run(&pb, &none, NULL, 0, NULL), CREDIT_STATUS_INVALID_ARGUMENT, "inputs: a negative count");
  pb.workload = "nosuch";
  EXPECT(credit_workspace_size(&pb, &bytes), CREDIT_STATUS_INVALID_ARGUMENT, "unknown workload 'nosuch'");

  (void)count;
  CHECK(strcmp(credit_status_name(CREDIT_STATUS_NO_CALIBRATION), "no calibration") == 0);
  CHECK(strcmp(credit_status_name((credit_status_t)42), "unknown status") == 0);
  /* A success clears the message. */
  CHECK(credit_workload_count(&count) == CREDIT_STATUS_OK && strcmp(credit_last_error(), "") == 0);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FIXTURE_DIR\n", argv[0]);
    return 2;
  }
  test_version();
  test_workloads();
  test_select_offline(argv[1]);
  test_errors(argv[1]);
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok: the C interface\n");
  return 0;
}
