#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// Backward of the weighted variance v = sum w (x - m)^2 / S, m = sum w x / S, S = sum w.
struct WvarBwd {
  static constexpr const char* name = "wvar_bwd";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 2> inputs{"x", "w"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 1> row_params{"gv"};
  static constexpr std::array<OutputDecl, 2> outputs{{{"dx", OutType::F32}, {"dw", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{2, 0b11}, {1, 0b11}}};
  static constexpr std::array<Combine, 3> combine{Combine::Sum, Combine::Sum, Combine::Sum};
  static constexpr unsigned apply_reads = 0b11;
  static constexpr std::array<TensorDomain, 1> domains{{{"w", {Domain::Uniform, 0.1f, 2.0f}}}};  // w > 0

  struct Ctx {
    float inv_s = 0, m = 0, v = 0, gv = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[1];
      g[1] = v[1] * v[0];
    } else {
      const float d = v[0] - c.m;
      g[0] = v[1] * d * d;
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int, const float* rowp, Ctx& c) {
    if constexpr (l == 0) {
      c.inv_s = 1.0f / r[0];
      c.m = r[1] * c.inv_s;
    } else {
      c.v = r[0] * c.inv_s;
      c.gv = rowp[0];
    }
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    const float d = v[0] - c.m;
    out[0] = c.gv * 2.0f * v[1] * d * c.inv_s;
    out[1] = c.gv * (d * d - c.v) * c.inv_s;
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
