#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// LARS momentum step for one layer (a row): the trust ratio needs |w| and |g| first.
struct Lars {
  static constexpr const char* name = "lars";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 3> inputs{"w", "g", "m"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 2> outputs{
      {{"m_new", OutType::F32}, {"w_new", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 1> stages{{{2, 0b011}}};
  static constexpr std::array<Combine, 2> combine{Combine::Sum, Combine::Sum};
  // A momentum buffer of the step's size (lr * trust * g ~ 1e-4): with a unit-scale m the
  // output would be 0.9 m to within 1e-4 and blind to the trust ratio's statistics.
  static constexpr std::array<TensorDomain, 1> domains{{{"m", {Domain::Normal, 0.0f, 1e-4f}}}};
  static constexpr unsigned apply_reads = 0b111;
  static constexpr float lr = 0.1f, momentum = 0.9f, weight_decay = 1e-4f, eta = 1e-3f;

  struct Ctx {
    float step = 0;  // lr * trust
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    g[0] = v[0] * v[0];
    g[1] = v[1] * v[1];
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int, const float*, Ctx& c) {
    const float wn = sqrtf(r[0]), gn = sqrtf(r[1]);
    const float trust = (wn > 0.0f && gn > 0.0f) ? eta * wn / (gn + weight_decay * wn) : 1.0f;
    c.step = lr * trust;
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    const float m_new = momentum * v[2] + c.step * (v[1] + weight_decay * v[0]);
    out[0] = m_new;
    out[1] = v[0] - m_new;
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
