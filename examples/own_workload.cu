// A workload declared outside credit's tree and run on credit's kernels: RMSNorm without
// a weight (credit ships `rmsnorm` with gamma), y = x / sqrt(mean(x^2) + 1e-5) per row. One stage (the sum of squares), then h re-reads x: the
// reduction-reuse shape credit's staged and clustered kernels keep in shared memory.
//   own_workload [M N]        e.g. 64 50000: every schedule and cluster size checked on the CPU
#include <credit/declare.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct RmsNorm {
  static constexpr const char* name = "rmsnorm_plain";
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<credit::OutputDecl, 1> outputs{{{"y", credit::OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<credit::StageDecl, 1> stages{{{1, 0b1}}};  // one statistic, reads x
  static constexpr std::array<credit::Combine, 1> combine{credit::Combine::Sum};
  static constexpr unsigned apply_reads = 0b1;  // h reads x again

  struct Ctx {
    float inv_rms = 0;
  };
  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    g[0] = v[0] * v[0];
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    c.inv_rms = 1.0f / sqrtf(r[0] / float(n) + 1e-5f);
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) { out[0] = v[0] * c.inv_rms; }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Largest relative error of y against RMSNorm in double.
double max_rel_error(const std::vector<float>& x, const std::vector<float>& y, long long m, long long n) {
  double worst = 0;
  for (long long r = 0; r < m; ++r) {
    double ss = 0;
    for (long long i = 0; i < n; ++i) ss += double(x[size_t(r * n + i)]) * x[size_t(r * n + i)];
    const double inv = 1 / std::sqrt(ss / double(n) + 1e-5);
    for (long long i = 0; i < n; ++i) {
      const double want = x[size_t(r * n + i)] * inv;
      worst = std::max(worst, std::abs(y[size_t(r * n + i)] - want) / std::max(1e-3, std::abs(want)));
    }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  const long long m = argc == 3 ? std::atoll(argv[1]) : 64, n = argc == 3 ? std::atoll(argv[2]) : 50000;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU\n");
    return 0;
  }
  try {
    std::mt19937 gen(7);
    std::normal_distribution<float> normal;
    std::vector<float> x(size_t(m * n)), y(x.size());
    for (float& e : x) e = normal(gen);
    float *dx, *dy;
    check(cudaMalloc(&dx, x.size() * 4), "cudaMalloc");
    check(cudaMalloc(&dy, y.size() * 4), "cudaMalloc");
    check(cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    credit::RowOperands op;
    op.in[0] = dx;
    op.out[0] = dy;
    op.rows = m;
    op.n = int(n);
    int ran = 0, bad = 0;
    const std::pair<credit::Schedule, int> runs[] = {{credit::Schedule::Staged, 1},  {credit::Schedule::GlobalReread, 1},
                                                     {credit::Schedule::Cluster, 2}, {credit::Schedule::Cluster, 4},
                                                     {credit::Schedule::Cluster, 8}, {credit::Schedule::Cluster, 16}};
    for (const auto& [s, p] : runs) {
      if (const std::string why = credit::declared_refusal<RmsNorm>(s, p, m, n); !why.empty()) {
        std::printf("%s P=%d: refused: %s\n", credit::schedule_name(s), p, why.c_str());
        continue;
      }
      check(cudaMemset(dy, 0xff, y.size() * 4), "cudaMemset");  // poison: NaN where nothing is written
      credit::launch_declared<RmsNorm>(s, p, op, nullptr);
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      check(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      const double err = max_rel_error(x, y, m, n);
      const bool good = err < 1e-4;  // NaN fails too
      std::printf("%s P=%d: max relative error %.3g%s\n", credit::schedule_name(s), p, err, good ? "" : "  FAILED");
      ++ran;
      bad += !good;
    }
    cudaFree(dx);
    cudaFree(dy);
    if (ran == 0 || bad) {
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
