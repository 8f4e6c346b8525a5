#pragma once
#include "core/whole_row.hpp"

namespace credit::workloads {

// Negative control, selection: the position of the row's maximum (the first of equal maxima),
// stored as fp32 (exact below 2^24 elements). CPU only (core/whole_row.hpp).
struct RowArgmax {
  static constexpr const char* name = "row_argmax";
  static constexpr const char* math = "i = argmax x, the first of ties, i[M]";
  static constexpr Structure structure = Structure::Selection;
  static constexpr long default_rows = 4096;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<OutputDecl, 0> outputs{};
  static constexpr std::array<const char*, 1> row_outputs{"i"};
  static constexpr const char* not_split_row =
      "a selection returns a position: a stage's contributions see an element's values, not its index, and "
      "a sum or maximum of per-element floats cannot carry the index of the maximum (nor the k of top-k)";

  static void row(const float* const* in, int n, float* const*, float* const* row_out) {
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (in[0][i] > in[0][best]) best = i;
    row_out[0][0] = float(best);
  }
};

}  // namespace credit::workloads
