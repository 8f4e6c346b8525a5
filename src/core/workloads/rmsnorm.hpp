#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// y = x * rsqrt(mean x^2 + eps) * gamma: the RMSNorm of LLaMA-style models, with its weight.
// Like layernorm it reads a column parameter in h.
struct Rmsnorm {
  static constexpr const char* name = "rmsnorm";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 1> col_params{"gamma"};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 1> stages{{{1, 0b1}}};
  static constexpr std::array<Combine, 1> combine{Combine::Sum};
  static constexpr std::array<TensorDomain, 1> domains{{{"gamma", {Domain::Normal, 1.0f, 0.1f}}}};
  static constexpr unsigned apply_reads = 0b1;
  static constexpr float eps = 1e-5f;

  struct Ctx {
    float inv_rms = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    g[0] = v[0] * v[0];
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    c.inv_rms = 1.0f / sqrtf(r[0] / float(n) + eps);
  }
  CREDIT_HD static void apply(const float* v, const float* colp, const Ctx& c, float* out) {
    out[0] = v[0] * c.inv_rms * colp[0];
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
