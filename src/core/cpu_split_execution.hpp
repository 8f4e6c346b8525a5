#pragma once
// CPU execution of the clustered decomposition, derived from a declaration: P slices,
// per-slice partials (accumulated in double, pushed as float), a replicated push into every CTA's slots, a local combine in each
// CTA (in source order, as the kernel does), then h on each CTA's own slice.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/operands.hpp"
#include "core/split.hpp"

namespace credit {

namespace detail {

template <class W>
void load_element(const RowOperands& op, long long row, int i, unsigned mask, float* v) {
  for (int k = 0; k < int(W::inputs.size()); ++k)
    if ((mask >> k) & 1u) v[k] = op.in[k][row * op.n + i];
}

template <class W, int l>
void run_stage(const RowOperands& op, long long row, int p, std::vector<typename W::Ctx>& ctx) {
  constexpr int q = W::stages[l].q;
  constexpr int off = stat_offset<W>(l);
  // slots[d][c][j]: what CTA c pushed into CTA d (d == c is its own, local store).
  std::vector<float> slots(size_t(p) * p * q);
  for (int c = 0; c < p; ++c) {
    double acc[q];
    float g[q], v[kMaxInputs] = {};
    for (int j = 0; j < q; ++j) acc[j] = combine_identity(W::combine[off + j]);
    const Slice s = slice_of(op.n, p, c);
    for (int i = s.lo; i < s.hi; ++i) {
      load_element<W>(op, row, i, W::stages[l].reads, v);
      W::template contribute<l>(v, ctx[c], g);
      for (int j = 0; j < q; ++j) acc[j] = combine_apply(W::combine[off + j], acc[j], double(g[j]));
    }
    // What CTA c pushes is a float, as on the GPU.
    for (int d = 0; d < p; ++d)
      for (int j = 0; j < q; ++j) slots[(size_t(d) * p + c) * q + j] = float(acc[j]);
  }
  float rowp[kMaxRowParams] = {};
  for (int k = 0; k < int(W::row_params.size()); ++k) rowp[k] = op.row_in[k][row];
  for (int d = 0; d < p; ++d) {
    float r[q];
    for (int j = 0; j < q; ++j) r[j] = combine_identity(W::combine[off + j]);
    for (int c = 0; c < p; ++c)
      for (int j = 0; j < q; ++j)
        r[j] = combine_apply(W::combine[off + j], r[j], slots[(size_t(d) * p + c) * q + j]);
    W::template finish<l>(r, op.n, rowp, ctx[d]);
  }
}

template <class W, int... l>  // unused when there is no stage (an elementwise declaration)
void run_stages([[maybe_unused]] const RowOperands& op, [[maybe_unused]] long long row, [[maybe_unused]] int p,
                [[maybe_unused]] std::vector<typename W::Ctx>& ctx, std::integer_sequence<int, l...>) {
  (run_stage<W, l>(op, row, p, ctx), ...);
}

}  // namespace detail

template <class W>
void cpu_split_execute(const RowOperands& op, int p) {
  constexpr int n_out = int(W::outputs.size());
  for (long long row = 0; row < op.rows; ++row) {
    std::vector<typename W::Ctx> ctx(static_cast<size_t>(p));
    detail::run_stages<W>(op, row, p, ctx, std::make_integer_sequence<int, num_stages<W>()>{});
    for (int c = 0; c < p; ++c) {
      const Slice s = slice_of(op.n, p, c);
      float v[kMaxInputs] = {}, colp[kMaxColParams] = {}, out[kMaxOutputs] = {};
      for (int i = s.lo; i < s.hi; ++i) {
        detail::load_element<W>(op, row, i, W::apply_reads, v);
        for (int k = 0; k < int(W::col_params.size()); ++k) colp[k] = op.col[k][i];
        W::apply(v, colp, ctx[c], out);
        for (int k = 0; k < n_out; ++k) {
          const long long at = row * op.n + i;
          if (W::outputs[k].type == OutType::F32) static_cast<float*>(op.out[k])[at] = out[k];
          else static_cast<std::int8_t*>(op.out[k])[at] = static_cast<std::int8_t>(out[k]);
        }
      }
    }
    float ro[kMaxRowOutputs] = {};
    W::row_out(ctx[0], ro);  // CTA 0 writes the row outputs, as in the kernel
    for (int k = 0; k < int(W::row_outputs.size()); ++k) op.row_out[k][row] = ro[k];
  }
}

}  // namespace credit
