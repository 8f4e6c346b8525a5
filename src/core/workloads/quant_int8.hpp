#pragma once
#include "core/rounded_quotient.hpp"
#include "core/workload.hpp"

namespace credit::workloads {

// Symmetric per-row int8 quantisation: q = clamp(rint(x / scale), -127, 127), scale = amax / 127.
// rint(x / scale) is computed exactly as with a true IEEE division (rint_quotient), on both sides, so GPU and CPU
// agree bit for bit with the float32 formula.
struct QuantInt8 {
  static constexpr const char* name = "quant_int8";
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"q", OutType::I8}}};
  static constexpr std::array<const char*, 1> row_outputs{"scale"};
  static constexpr std::array<StageDecl, 1> stages{{{1, 0b1}}};
  static constexpr std::array<Combine, 1> combine{Combine::Max};
  static constexpr unsigned apply_reads = 0b1;

  struct Ctx {
    float scale = 1;
    QuotientBy by;  // x / scale without a division per element (core/rounded_quotient.hpp)
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    g[0] = fabsf(v[0]);
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int, const float*, Ctx& c) {
    c.scale = r[0] > 0.0f ? r[0] / 127.0f : 1.0f;
    c.by = quotient_by(c.scale);
  }
  CREDIT_HD static void apply(const float* v, const float*, const Ctx& c, float* out) {
    out[0] = fminf(fmaxf(rint_quotient(v[0], c.by), -127.0f), 127.0f);  // rintf(v / scale), bit for bit
  }
  CREDIT_HD static void row_out(const Ctx& c, float* ro) { ro[0] = c.scale; }
};

}  // namespace credit::workloads
