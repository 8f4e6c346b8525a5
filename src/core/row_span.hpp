#pragma once
// A span [lo, hi) of one row walked with 16-byte accesses: a scalar head up to the first 16-byte
// boundary, whole float4 groups, and a scalar tail. Rows of any width N work, also when N is not a
// multiple of 4 (then row starts are not 16-byte aligned). Host and device: the kernels walk spans,
// and the CPU tests check the layouts built on them (the split-row kernels' planes and chunk plans).
#include "core/hd.hpp"

namespace credit {

struct RowSpan {
  long long base;  // element index of the row start in the [rows x n] tensors
  int lo, hi;      // the span, in row coordinates
  int ia, ib;      // [ia, ib): whole 16-byte groups
  int off;         // misalignment of lo: shared-memory index of element i is i - lo + off

  CREDIT_HD RowSpan(long long base_, int lo_, int hi_) : base(base_), lo(lo_), hi(hi_) {
    off = int((base + lo) & 3);
    const int head = (4 - off) & 3;
    ia = lo + head < hi ? lo + head : hi;
    ib = ia + ((hi - ia) & ~3);
  }
  // A span known to hold whole groups only (N % 4 == 0, so every row starts 16-byte aligned and every slice's
  // ends are multiples of 4): no scalar head or tail, nothing to compute.
  struct WholeGroups {};
  CREDIT_HD RowSpan(long long base_, int lo_, int hi_, WholeGroups)
      : base(base_), lo(lo_), hi(hi_), ia(lo_), ib(hi_), off(0) {}
  CREDIT_HD int groups() const { return (ib - ia) >> 2; }
  CREDIT_HD int edge_count() const { return (ia - lo) + (hi - ib); }
  // The t-th scalar element (head first, then tail), t < edge_count().
  CREDIT_HD int edge_elem(int t) const { return t < ia - lo ? lo + t : ib + (t - (ia - lo)); }
  CREDIT_HD int group_elem(int g) const { return ia + 4 * g; }
  CREDIT_HD int smem_index(int i) const { return i - lo + off; }
};

}  // namespace credit
