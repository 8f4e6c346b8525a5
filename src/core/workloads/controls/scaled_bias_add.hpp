#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// Negative control, elementwise: y = 0.5 x + b. No row statistic (no stage), so every element is
// read once and written once: there is nothing for a cluster to keep or to exchange.
struct ScaledBiasAdd {
  static constexpr const char* name = "scaled_bias_add";
  static constexpr const char* math = "y = 0.5 x + b, b[N]";
  static constexpr Structure structure = Structure::Elementwise;
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 1> col_params{"b"};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 0> stages{};
  static constexpr std::array<Combine, 0> combine{};
  static constexpr unsigned apply_reads = 0b1;
  static constexpr float scale = 0.5f;

  struct Ctx {};

  CREDIT_HD static void apply(const float* v, const float* colp, const Ctx&, float* out) {
    out[0] = scale * v[0] + colp[0];
  }
  CREDIT_HD static void row_out(const Ctx&, float*) {}
};

}  // namespace credit::workloads
