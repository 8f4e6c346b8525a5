#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// Backward of the Pearson correlation r = Sab / sqrt(Saa Sbb), a = x - mean x, b = y - mean y.
// A constant row (Saa or Sbb = 0) has no defined r; its gradient terms are taken as 0.
struct PearsonBwd {
  static constexpr const char* name = "pearson_bwd";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 2> inputs{"x", "y"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 1> row_params{"gr"};
  static constexpr std::array<OutputDecl, 2> outputs{{{"dx", OutType::F32}, {"dy", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 2> stages{{{2, 0b11}, {3, 0b11}}};
  static constexpr std::array<Combine, 5> combine{Combine::Sum, Combine::Sum, Combine::Sum,
                                                  Combine::Sum, Combine::Sum};
  static constexpr unsigned apply_reads = 0b11;

  struct Ctx {
    float mx = 0, my = 0, inv_d = 0, r_saa = 0, r_sbb = 0, gr = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx& c, float* g) {
    if constexpr (l == 0) {
      g[0] = v[0];
      g[1] = v[1];
    } else {
      const float a = v[0] - c.mx, b = v[1] - c.my;
      g[0] = a * a;
      g[1] = b * b;
      g[2] = a * b;
    }
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int n, const float* rowp, Ctx& c) {
    if constexpr (l == 0) {
      c.mx = r[0] / float(n);
      c.my = r[1] / float(n);
    } else {
      const float saa = r[0], sbb = r[1], sab = r[2];
      const float d = sqrtf(saa * sbb);
      c.inv_d = d > 0.0f ? 1.0f / d : 0.0f;
      const float rho = sab * c.inv_d;
      c.r_saa = saa > 0.0f ? rho / saa : 0.0f;
      c.r_sbb = sbb > 0.0f ? rho / sbb : 0.0f;
      c.gr = rowp[0];
    }
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    const float a = v[0] - c.mx, b = v[1] - c.my;
    out[0] = c.gr * (b * c.inv_d - c.r_saa * a);
    out[1] = c.gr * (a * c.inv_d - c.r_sbb * b);
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
