#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// h = x + r, y = h * rsqrt(mean h^2 + eps) * gamma: the residual add fused with the RMSNorm of
// LLaMA-style blocks (both outputs kept: h feeds the next residual). Declared after the time model's
// constants were fitted (2026-12-01), so that a sweep of it judges the model on a workload no fit or
// design choice had seen: two retained inputs, two outputs, one stage, a column parameter.
struct AddRmsnorm {
  static constexpr const char* name = "add_rmsnorm";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 2> inputs{"x", "r"};
  static constexpr std::array<const char*, 1> col_params{"gamma"};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 2> outputs{{{"h", OutType::F32}, {"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 1> stages{{{1, 0b11}}};
  static constexpr std::array<Combine, 1> combine{Combine::Sum};
  static constexpr std::array<TensorDomain, 1> domains{{{"gamma", {Domain::Normal, 1.0f, 0.1f}}}};
  static constexpr unsigned apply_reads = 0b11;
  static constexpr float eps = 1e-5f;

  struct Ctx {
    float inv_rms = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    const float h = v[0] + v[1];
    g[0] = h * h;
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    c.inv_rms = 1.0f / sqrtf(r[0] / float(n) + eps);
  }
  CREDIT_HD static void apply(const float* v, const float* colp, const Ctx& c, float* out) {
    const float h = v[0] + v[1];
    out[0] = h;
    out[1] = h * c.inv_rms * colp[0];
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
