#pragma once
#include "core/fast_math.hpp"
#include "core/workload.hpp"

namespace credit::workloads {

// dx = p * (dy - sum p dy), p = softmax(z), computed with the row maximum for stability.
struct SoftmaxBwd {
  static constexpr const char* name = "softmax_bwd";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 2> inputs{"z", "dy"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"dx", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{1, 0b01}, {2, 0b11}}};
  static constexpr std::array<Combine, 3> combine{Combine::Max, Combine::Sum, Combine::Sum};
  static constexpr std::array<TensorDomain, 1> domains{{{"z", {Domain::Normal, 0.0f, 1.0f, true}}}};  // logits
  static constexpr unsigned apply_reads = 0b11;

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
      g[1] = e * v[1];
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
    out[0] = p * (v[1] - c.dot);
  }
  // The register-resident kernels keep the exponential in place of z: h does not compute it again.
  CREDIT_HD static void contribute_kept(float* v, const Ctx& c, float* g) {
    contribute<1>(v, c, g);
    v[0] = g[0];
  }
  CREDIT_HD static void apply_kept(const float* v, const float*, const Ctx& c, float* out) {
    out[0] = v[0] * c.inv_z * (v[1] - c.dot);
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
