#pragma once
// A span [lo, hi) of one row walked with 16-byte accesses: a scalar head up to the first 16-byte
// boundary, whole 16-byte groups of G elements (4 floats, or 8 bf16 / fp16), and a scalar tail. Rows
// of any width N work, also when N is not a multiple of G (then row starts are not 16-byte aligned).
// Host and device: the kernels walk spans, and the CPU tests check the layouts built on them (the
// split-row kernels' planes and chunk plans).
#include "core/hd.hpp"

namespace credit {

template <int G = 4>
struct BasicRowSpan {
  static_assert(G == 4 || G == 8, "16-byte groups of 4-byte or 2-byte elements");
  static constexpr int group = G;  // elements per 16-byte group
  static constexpr int group_shift = G == 8 ? 3 : 2;
  long long base;  // element index of the row start in the [rows x n] tensors
  int lo, hi;      // the span, in row coordinates
  int ia, ib;      // [ia, ib): whole 16-byte groups
  int off;         // misalignment of lo: shared-memory index of element i is i - lo + off

  CREDIT_HD BasicRowSpan(long long base_, int lo_, int hi_) : base(base_), lo(lo_), hi(hi_) {
    off = int((base + lo) & (G - 1));
    const int head = (G - off) & (G - 1);
    ia = lo + head < hi ? lo + head : hi;
    ib = ia + ((hi - ia) & ~(G - 1));
  }
  CREDIT_HD int groups() const { return (ib - ia) >> group_shift; }
  CREDIT_HD int edge_count() const { return (ia - lo) + (hi - ib); }
  // The t-th scalar element (head first, then tail), t < edge_count().
  CREDIT_HD int edge_elem(int t) const { return t < ia - lo ? lo + t : ib + (t - (ia - lo)); }
  CREDIT_HD int group_elem(int g) const { return ia + G * g; }
  CREDIT_HD int smem_index(int i) const { return i - lo + off; }
};
using RowSpan = BasicRowSpan<4>;  // fp32

}  // namespace credit
