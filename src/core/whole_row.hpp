#pragma once
// The vocabulary of an operator that stages of statistics cannot express (core/workload.hpp): a
// scan or a selection, whose output depends on the order of the row's elements, not on compact
// statistics that every CTA of a cluster could share. It is declared for the structural rules
// and checked on the CPU; there are no kernels for it. A declaration is a struct W with:
//   name, default_rows, math : as in core/workload.hpp (math: a line for credit list)
//   structure     : Structure::Scan or Structure::Selection
//   inputs, outputs, row_outputs : as in core/workload.hpp (fp32 only; no column or row parameters)
//   not_split_row : why the split-row kernels (stages, combine, apply) cannot run it
//   row(in, n, out, row_out) : the operator on one row: in[k] and out[k] point at the row's
//     elements, row_out[k] at the row's scalar
#include <cstddef>

#include "core/operands.hpp"
#include "core/workload.hpp"

namespace credit {

template <class W>
constexpr bool is_whole_row() {
  return requires { W::not_split_row; };
}

template <class W>
constexpr bool whole_row_declaration_is_valid() {
  if (W::structure != Structure::Scan && W::structure != Structure::Selection) return false;
  if (W::inputs.size() < 1 || W::inputs.size() > kMaxInputs) return false;
  if (W::outputs.size() > kMaxOutputs || W::row_outputs.size() > kMaxRowOutputs) return false;
  if (W::outputs.size() + W::row_outputs.size() < 1) return false;
  for (const auto& o : W::outputs)
    if (o.type != OutType::F32) return false;
  return W::not_split_row[0] != '\0';
}

// The CPU execution of every row of op.
template <class W>
void cpu_whole_row_execute(const RowOperands& op) {
  for (long long r = 0; r < op.rows; ++r) {
    const float* in[kMaxInputs] = {};
    float* out[kMaxOutputs] = {};
    float* row_out[kMaxRowOutputs] = {};
    const long long at = r * op.n;
    for (std::size_t k = 0; k < W::inputs.size(); ++k) in[k] = op.in[k] + at;
    for (std::size_t k = 0; k < W::outputs.size(); ++k) out[k] = static_cast<float*>(op.out[k]) + at;
    for (std::size_t k = 0; k < W::row_outputs.size(); ++k) row_out[k] = op.row_out[k] + r;
    W::row(in, op.n, out, row_out);
  }
}

}  // namespace credit
