#pragma once
#include "core/fast_math.hpp"
#include "core/workload.hpp"

namespace credit::workloads {

// dz = p * (dy * k - sum p dy k), p = softmax(z), k = the dropout mask applied to p (0 or 1 / keep
// probability; drawn uniform here, which the arithmetic does not care about): the backward of
// dropout(softmax(z)), attention's probabilities. Declared after the time model's constants were
// fitted (2026-12-01), so that a held-out sweep judges the model on a workload no fit or
// design choice had seen: three retained inputs (12 B per element in shared memory, the first such),
// two stages.
struct SoftmaxDropoutBwd {
  static constexpr const char* name = "softmax_dropout_bwd";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 3> inputs{"z", "dy", "k"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"dz", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{1, 0b001}, {2, 0b111}}};
  static constexpr std::array<Combine, 3> combine{Combine::Max, Combine::Sum, Combine::Sum};
  static constexpr std::array<TensorDomain, 2> domains{
      {{"z", {Domain::Normal, 0.0f, 1.0f, true}}, {"k", {Domain::Uniform, 0.0f, 1.25f}}}};  // logits; mask
  static constexpr unsigned apply_reads = 0b111;

  struct Ctx {
    float m = 0, inv_z = 0, dot = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[0];
    } else {
      const float e = fast_exp(v[0] - c.m);
      g[0] = e;
      g[1] = e * (v[1] * v[2]);  // grouped as contribute_kept computes it
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int, const float*, Ctx& c) {
    if constexpr (l == 0) {
      c.m = r[0];
    } else {
      c.inv_z = 1.0f / r[0];
      c.dot = r[1] * c.inv_z;
    }
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    const float p = fast_exp(v[0] - c.m) * c.inv_z;
    out[0] = p * (v[1] * v[2] - c.dot);
  }
  // The register-resident kernels keep the exponential in place of z and dy k in place of dy: h computes
  // neither again.
  CREDIT_HD static void contribute_kept(float* v, const Ctx& c, float* g) {
    const float e = fast_exp(v[0] - c.m), gk = v[1] * v[2];
    g[0] = e;
    g[1] = e * gk;
    v[0] = e;
    v[1] = gk;
  }
  CREDIT_HD static void apply_kept(const float* v, const float*, const Ctx& c, float* out) {
    out[0] = v[0] * c.inv_z * (v[1] - c.dot);
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
