// Asks credit which schedule to run LayerNorm with at M x N (the time model, from a calibration
// file), runs that kernel on this program's own buffers, stream and workspace, and checks the
// result against a CPU LayerNorm.
//   select_and_run CALIBRATION [M N]      e.g. data/calibrations/h200.json 512 50257
#include <credit/credit.hpp>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// y = (x - mean) / sqrt(var + 1e-5) * gamma + beta per row, in double.
double max_error(const std::vector<float>& x, const std::vector<float>& gamma, const std::vector<float>& beta,
                 const std::vector<float>& y, long long m, long long n) {
  double worst = 0;
  for (long long r = 0; r < m; ++r) {
    const float* row = &x[size_t(r * n)];
    double mean = 0, var = 0;
    for (long long i = 0; i < n; ++i) mean += row[i];
    mean /= double(n);
    for (long long i = 0; i < n; ++i) var += (row[i] - mean) * (row[i] - mean);
    const double inv = 1 / std::sqrt(var / double(n) + 1e-5);
    for (long long i = 0; i < n; ++i)
      worst = std::max(worst, std::abs((row[i] - mean) * inv * gamma[size_t(i)] + beta[size_t(i)] - y[size_t(r * n + i)]));
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 4) {
    std::fprintf(stderr, "usage: %s CALIBRATION [M N]\n", argv[0]);
    return 2;
  }
  const long long m = argc == 4 ? std::atoll(argv[2]) : 512, n = argc == 4 ? std::atoll(argv[3]) : 50257;
  try {
    // 1. Which schedule (no GPU needed).
    const credit::Selector selector = credit::Selector::from_calibration(argv[1]);
    const credit::Selection pick = selector.select("layernorm", m, n);
    std::printf("layernorm %lldx%lld: %s P=%d, predicted %.4f ms\n", m, n, credit::schedule_name(pick.schedule),
                pick.p, pick.time_ms);

    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::printf("skipped: no GPU\n");
      return 0;
    }
    // 2. Can it run here (the calibration may be another GPU's)?
    const credit::Problem problem{"layernorm", pick.schedule, pick.p, m, n};
    const credit::Status ok = credit::can_implement(problem);
    if (!ok) {
      std::printf("skipped: this GPU cannot run it: %s\n", ok.reason.c_str());
      return 0;
    }

    // 3. Our buffers (x [M x N]; gamma, beta [N]; y [M x N]), stream and workspace.
    std::mt19937 gen(1);
    std::normal_distribution<float> normal;
    const size_t elems = size_t(m) * size_t(n), width = size_t(n);
    std::vector<float> x(elems), gamma(width), beta(width), y(elems);
    for (auto* v : {&x, &gamma, &beta})
      for (float& e : *v) e = normal(gen);
    float *dx, *dgamma, *dbeta, *dy;
    void* workspace = nullptr;
    const size_t workspace_bytes = credit::workspace_bytes(problem);
    cudaStream_t stream;
    check(cudaStreamCreate(&stream), "cudaStreamCreate");
    check(cudaMalloc(&dx, x.size() * 4), "cudaMalloc");
    check(cudaMalloc(&dgamma, gamma.size() * 4), "cudaMalloc");
    check(cudaMalloc(&dbeta, beta.size() * 4), "cudaMalloc");
    check(cudaMalloc(&dy, y.size() * 4), "cudaMalloc");
    if (workspace_bytes) {
      check(cudaMalloc(&workspace, workspace_bytes), "cudaMalloc");
      check(cudaMemsetAsync(workspace, 0, workspace_bytes, stream), "cudaMemsetAsync");
    }
    check(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(dgamma, gamma.data(), gamma.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(dbeta, beta.data(), beta.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");

    // 4. Run it (tensors in the declaration's order: credit::workload_tensors("layernorm")).
    credit::Tensors tensors;
    tensors.inputs = {dx};
    tensors.col_params = {dgamma, dbeta};
    tensors.outputs = {dy};
    credit::run(problem, tensors, workspace, workspace_bytes, stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    check(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (void* p : {static_cast<void*>(dx), static_cast<void*>(dgamma), static_cast<void*>(dbeta),
                    static_cast<void*>(dy), workspace})
      cudaFree(p);
    cudaStreamDestroy(stream);

    // 5. Check against the CPU.
    const double err = max_error(x, gamma, beta, y, m, n);
    std::printf("max |error| against the CPU: %.3g\n", err);
    if (!(err < 1e-3)) {
      std::printf("FAILED\n");
      return 1;
    }
    std::printf("ok\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
