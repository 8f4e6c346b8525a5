#pragma once
#include "core/fast_math.hpp"
#include "core/workload.hpp"

namespace credit::workloads {

// Seed 001: y = softmax((x - max x) * s), s = rsqrt(mean x^2 + eps).
struct RmsSoftmax {
  static constexpr const char* name = "rms_softmax";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{2, 0b1}, {1, 0b1}}};
  static constexpr std::array<Combine, 3> combine{Combine::Sum, Combine::Max, Combine::Sum};
  static constexpr std::array<TensorDomain, 1> domains{{{"x", {Domain::Normal, 0.0f, 1.0f, true}}}};  // logits
  static constexpr unsigned apply_reads = 0b1;
  static constexpr float eps = 1e-5f;

  struct Ctx {
    float s = 0, m = 0, inv_z = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[0] * v[0];
      g[1] = v[0];
    } else {
      g[0] = fast_exp((v[0] - c.m) * c.s);
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float*, Ctx& c) {
    if constexpr (l == 0) {
      c.s = 1.0f / sqrtf(r[0] / float(n) + eps);
      c.m = r[1];
    } else {
      c.inv_z = 1.0f / r[0];
    }
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    out[0] = fast_exp((v[0] - c.m) * c.s) * c.inv_z;
  }
  // The megakernel of seed 001 keeps the exponentials E in shared memory: y = E / z.
  CREDIT_HD static void apply_contribution(float e, const Ctx& c, float* out) { out[0] = e * c.inv_z; }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
