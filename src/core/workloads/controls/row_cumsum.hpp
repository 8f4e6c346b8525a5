#pragma once
#include "core/whole_row.hpp"

namespace credit::workloads {

// Negative control, scan: y_i = x_0 + ... + x_i. Each output depends on every element before it,
// in order. CPU only (core/whole_row.hpp): accumulated in double, stored as float.
struct RowCumsum {
  static constexpr const char* name = "row_cumsum";
  static constexpr const char* math = "y_i = x_0 + ... + x_i";
  static constexpr Structure structure = Structure::Scan;
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr const char* not_split_row =
      "a scan's element i needs the sum of the elements before it: CTA c would need the partials of CTAs "
      "0..c-1 in rank order, then a scan of its own slice, while the split-row kernels give every CTA the "
      "same all-reduced statistics and apply h to each element from them alone";

  static void row(const float* const* in, int n, float* const* out, float* const*) {
    double s = 0;
    for (int i = 0; i < n; ++i) {
      s += in[0][i];
      out[0][i] = float(s);
    }
  }
};

}  // namespace credit::workloads
