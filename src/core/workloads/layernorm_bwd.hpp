#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// dx = rstd (g - mean g - xhat mean(g xhat)), xhat = (x - mean x) rstd, rstd = 1 / sqrt(var x + eps):
// layer norm's input gradient, g the gradient at the normalised output (gamma already applied, or a
// layer norm without affine parameters: a declaration's stage cannot read column parameters). Declared
// after the time model's constants were fitted (2026-12-01), so that a held-out sweep judges the model
// on a workload no fit or design choice had seen: mean first (as layernorm), then
// three sums of two inputs (the first stage of three statistics after one of one).
struct LayernormBwd {
  static constexpr const char* name = "layernorm_bwd";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 2> inputs{"x", "g"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"dx", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{1, 0b01}, {3, 0b11}}};
  static constexpr std::array<Combine, 4> combine{Combine::Sum, Combine::Sum, Combine::Sum, Combine::Sum};
  static constexpr unsigned apply_reads = 0b11;
  static constexpr float eps = 1e-5f;

  struct Ctx {
    float mu = 0, rstd = 0, mean_g = 0, k = 0;  // k = rstd^2 mean(g (x - mu))
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[0];
    } else {
      const float d = v[0] - c.mu;
      g[0] = d * d;
      g[1] = v[1];
      g[2] = v[1] * d;
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    if constexpr (l == 0) {
      c.mu = r[0] / float(n);
    } else {
      c.rstd = 1.0f / sqrtf(r[0] / float(n) + eps);
      c.mean_g = r[1] / float(n);
      c.k = c.rstd * c.rstd * (r[2] / float(n));
    }
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    out[0] = c.rstd * (v[1] - c.mean_g - (v[0] - c.mu) * c.k);
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
