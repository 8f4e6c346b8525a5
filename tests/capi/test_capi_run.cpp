// The C interface on a GPU: workloads run through credit_run on raw device pointers, with each schedule that can
// run here, in fp32 and bf16, outputs poisoned before the launch, checked against the float64 oracle
// (tests/reference). Exit 77 (skipped) without a usable Hopper GPU.
#include <credit/credit_c.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/element_type.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

using namespace credit;

namespace {

int failures = 0;

void cuda_ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

void fail(const std::string& what) {
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  ++failures;
}

// Device memory freed with its owner.
struct Device {
  std::vector<void*> owned;
  void* alloc(size_t bytes) {
    void* p = nullptr;
    cuda_ok(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
    owned.push_back(p);
    return p;
  }
  // Host floats stored on the device in t (bf16: rounded bits, as the kernels read them).
  const void* upload(const std::vector<float>& v, ElementType t) {
    std::vector<unsigned char> bytes(v.size() * size_t(element_bytes(t)));
    for (size_t i = 0; i < v.size(); ++i) {
      if (t == ElementType::F32) {
        std::memcpy(&bytes[i * 4], &v[i], 4);
      } else {
        const std::uint16_t b = to_bits(t, v[i]);
        std::memcpy(&bytes[i * 2], &b, 2);
      }
    }
    void* p = alloc(bytes.size());
    cuda_ok(cudaMemcpy(p, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    return p;
  }
  ~Device() {
    for (void* p : owned) cudaFree(p);
  }
};

double l2_norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

// Runs the workload in dtype t with the schedule through the C interface and checks it; false when this device
// cannot run it.
bool check(const char* workload, ElementType t, const char* schedule, int p, long long m, int n) {
  const credit_dtype_t dtype = t == ElementType::F32 ? CREDIT_DTYPE_F32 : CREDIT_DTYPE_BF16;
  const credit_problem_t pb{workload, dtype, schedule, p, m, n};
  char reason[512];
  if (credit_can_implement(&pb, reason, sizeof reason) != CREDIT_STATUS_OK) {
    std::printf("  %s %s %s P=%d: cannot run here: %s\n", workload, element_type_name(t), schedule, p, reason);
    return false;
  }
  HostProblem h = make_random_problem(find_workload(workload), m, n, 20261207);
  h.round_inputs(t);
  const Reference64 ref = reference64(h);

  Device dev;
  std::vector<const void*> inputs, cols;
  std::vector<const float*> rows;
  std::vector<void*> outputs;
  std::vector<float*> row_outputs;
  std::vector<size_t> out_bytes;
  for (const auto& v : h.in) inputs.push_back(dev.upload(v, t));
  for (const auto& v : h.col) cols.push_back(dev.upload(v, t));
  for (const auto& v : h.row_in) rows.push_back(static_cast<const float*>(dev.upload(v, ElementType::F32)));
  for (size_t k = 0; k < h.out.size(); ++k) {
    const bool int8 = h.w->outputs[k].type == OutType::I8;
    out_bytes.push_back(size_t(m) * size_t(n) * (int8 ? 1 : size_t(element_bytes(t))));
    outputs.push_back(dev.alloc(out_bytes.back()));
    cuda_ok(cudaMemset(outputs.back(), int8 ? 0x80 : 0xff, out_bytes.back()), "cudaMemset");  // -128, NaN
  }
  for (size_t k = 0; k < h.row_out.size(); ++k) {
    row_outputs.push_back(static_cast<float*>(dev.alloc(size_t(m) * 4)));
    cuda_ok(cudaMemset(row_outputs.back(), 0xff, size_t(m) * 4), "cudaMemset");
  }
  const credit_tensors_t tensors{inputs.data(),  int(inputs.size()),  cols.data(),        int(cols.size()),
                                 rows.data(),    int(rows.size()),    outputs.data(),     int(outputs.size()),
                                 row_outputs.data(), int(row_outputs.size())};
  size_t bytes = 0;
  if (credit_workspace_size(&pb, &bytes) != CREDIT_STATUS_OK) fail(credit_last_error());
  void* workspace = dev.alloc(bytes);
  cudaStream_t stream;
  cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate");
  cuda_ok(cudaMemsetAsync(workspace, 0, bytes, stream), "cudaMemsetAsync");
  if (credit_run(&pb, &tensors, workspace, bytes, stream) != CREDIT_STATUS_OK) fail(credit_last_error());
  cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy");

  std::string verdict;
  for (size_t k = 0; k < h.out.size(); ++k) {
    std::vector<unsigned char> got(out_bytes[k]);
    cuda_ok(cudaMemcpy(got.data(), outputs[k], got.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (h.w->outputs[k].type == OutType::I8) {  // the float32 formula, bit for bit
      std::vector<float> scale;
      const std::vector<int8_t> want = quant_int8_float32(h, &scale);
      long long bad = 0;
      for (size_t i = 0; i < want.size(); ++i) bad += static_cast<int8_t>(got[i]) != want[i];
      std::vector<float> scale_got(static_cast<size_t>(m));
      cuda_ok(cudaMemcpy(scale_got.data(), row_outputs[0], size_t(m) * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      bad += std::memcmp(scale_got.data(), scale.data(), size_t(m) * 4) != 0;
      verdict += std::string(" ") + h.w->outputs[k].name + ": " + std::to_string(bad) + " wrong";
      if (bad) fail(std::string(workload) + " " + schedule + ": int8 output differs");
      continue;
    }
    std::vector<float> y(size_t(m) * size_t(n));
    for (size_t i = 0; i < y.size(); ++i) {
      if (t == ElementType::F32) {
        std::memcpy(&y[i], &got[i * 4], 4);
      } else {
        std::uint16_t b;
        std::memcpy(&b, &got[i * 2], 2);
        y[i] = widen(t, b);
      }
    }
    const double e = rel_l2(y.data(), ref.out[k]);
    const double allowed = output_tolerance(t, l2_norm(ref.out[k]), double(ref.out[k].size()));
    verdict += std::string(" ") + h.w->outputs[k].name + ": rel L2 " + std::to_string(e);
    if (!(e <= allowed))
      fail(std::string(workload) + " " + element_type_name(t) + " " + schedule + ": error " + std::to_string(e) +
           " above " + std::to_string(allowed));
  }
  std::printf("  %s %s %s P=%d %lldx%d:%s\n", workload, element_type_name(t), schedule, p, m, n, verdict.c_str());
  return true;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA GPU\n");
    return 77;
  }
  cudaDeviceProp prop;
  cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (prop.major < 9) {
    std::printf("SKIPPED: %s is not a Hopper GPU\n", prop.name);
    return 77;
  }
  struct Schedule {
    const char* name;
    int p;
  };
  const Schedule schedules[] = {{"staged", 1}, {"global_reread", 1}, {"cluster", 2}, {"cluster", 8},
                                {"split_global", 4}};
  int ran = 0;
  for (const char* workload : {"layernorm", "add_rmsnorm", "quant_int8"})
    for (ElementType t : {ElementType::F32, ElementType::BF16})
      for (const Schedule& s : schedules) ran += check(workload, t, s.name, s.p, 96, 8200);
  if (ran < 12) fail("only " + std::to_string(ran) + " launches could run here");
  if (failures) return 1;
  std::printf("ok: %d launches through the C interface\n", ran);
  return 0;
}
