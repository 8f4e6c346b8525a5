#pragma once
#include "core/workload.hpp"

namespace credit::workloads {

// Negative control, one-pass reduction: s = sum x per row. The row is read once and its statistic
// is the output; nothing reads the row again, so a cluster has no re-read to remove.
struct RowSum {
  static constexpr const char* name = "row_sum";
  static constexpr const char* math = "s = sum x, s[M]";
  static constexpr Structure structure = Structure::OnePassReduction;
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 0> outputs{};
  static constexpr std::array<const char*, 1> row_outputs{"s"};
  static constexpr std::array<StageDecl, 1> stages{{{1, 0b1}}};
  static constexpr std::array<Combine, 1> combine{Combine::Sum};
  static constexpr unsigned apply_reads = 0b0;

  struct Ctx {
    float s = 0;
  };

  template <int l>
  CREDIT_HD static void contribute(const float* v, const Ctx&, float* g) {
    g[0] = v[0];
  }
  template <int l>
  CREDIT_HD static void finish(const float* r, int, const float*, Ctx& c) {
    c.s = r[0];
  }
  CREDIT_HD static void apply(const float*, const float*, const Ctx&, float*) {}  // no per-element output
  CREDIT_HD static void row_out(const Ctx& c, float* ro) { ro[0] = c.s; }
};

}  // namespace credit::workloads
