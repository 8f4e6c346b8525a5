#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// y = (x - mean x) * rsqrt(var x + eps) * gamma + beta
struct Layernorm {
  static constexpr const char* name = "layernorm";
  static constexpr long default_rows = 2048;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 2> col_params{"gamma", "beta"};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{1, 0b1}, {1, 0b1}}};
  static constexpr std::array<Combine, 2> combine{Combine::Sum, Combine::Sum};
  static constexpr std::array<TensorDomain, 2> domains{
      {{"gamma", {Domain::Normal, 1.0f, 0.1f}}, {"beta", {Domain::Normal, 0.0f, 0.1f}}}};
  static constexpr unsigned apply_reads = 0b1;
  static constexpr float eps = 1e-5f;

  struct Ctx {
    float mu = 0, rstd = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[0];
    } else {
      const float d = v[0] - c.mu;
      g[0] = d * d;
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    if constexpr (l == 0) c.mu = r[0] / float(n);
    else c.rstd = 1.0f / sqrtf(r[0] / float(n) + eps);
  }
  CREDIT_HD static void apply(const float* v, const float* colp, const Ctx& c, float* out) {
    out[0] = (v[0] - c.mu) * c.rstd * colp[0] + colp[1];
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
