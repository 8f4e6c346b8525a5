#pragma once
// The vocabulary a workload declaration is written in (DESIGN.md section 1).
//
// A declaration is a struct W with:
//   name, default_rows
//   inputs      : per-element fp32 row tensors [M x N]; bit k of a mask means inputs[k]
//   col_params  : fp32 vectors [N] shared by all rows (e.g. LayerNorm's gamma, beta)
//   row_params  : fp32 scalars [M] (e.g. an upstream gradient per row)
//   outputs     : per-element outputs [M x N], fp32 or int8 (none when row outputs are all it
//                 writes: a row reduction)
//   row_outputs : fp32 scalars [M] written once per row (e.g. a quantisation scale)
//   stages      : for each stage l, q_l and the mask of inputs its contributions read (none only
//                 for an elementwise operator, which has no statistic)
//   combine     : the operator of every statistic, stages concatenated (Q entries)
//   apply_reads : the mask of inputs h reads
//   Ctx         : the row state derived from the statistics so far
//   contribute<l>(v, ctx, g) : g[j] = g_{l,j}(x_i, r_{<l}) for the element with inputs v
//   finish<l>(r, n, rowp, ctx): fold the combined r_{l,*} into ctx (n = row width)
//   apply(v, colp, ctx, out)   : out[k] = h_k(x_i, r)
//   row_out(ctx, ro)           : the per-row outputs
//   structure (optional) : what the structure leaves for a cluster to reuse (core/structure.hpp);
//     derived from what the declaration reads when absent. Negative controls state it, and it must
//     agree with the declaration (declaration_is_valid)
//   math (optional)      : a one-line description for credit list
//   domains (optional) : the distribution of named tensors in test and benchmark data (every
//     other tensor is standard normal); the tool's inputs and the tests' draw from this one source
//   apply_contribution(g, ctx, out) (optional): h computed from the last stage's contribution g
//     of the element instead of its inputs. Then the schedules that retain the row in shared
//     memory overwrite the retained input with g during the last stage and apply h to it (seed
//     001 keeps the exponentials, not x). Needs one retained input, q = 1 in the last stage, h
//     reading only that input and no column parameters.
//   contribute_kept(v, ctx, g) and apply_kept(v, colp, ctx, out) (optional, both or neither): the last
//     stage's contribute that also overwrites the element's inputs v with what h needs of them, and h
//     from those. The register-resident schedules, which hold every input of an element in registers,
//     use them so that h does not compute again what the last stage did (softmax's exponentials);
//     g must equal contribute's, and apply_kept of the overwritten v equal apply of v.
// Retained inputs (kept in shared memory by the staged and clustered schedules) are
// the inputs any stage reads; inputs only h reads are streamed at apply time.
#include <array>
#include <cstddef>

#include "core/combine.hpp"
#include "core/structure.hpp"

namespace credit {

// I8: h's value for the output is an integer in [-128, 127] (quant_int8 clamps it there); the kernels store its
// two's complement byte.
enum class OutType : unsigned char { F32, I8 };

constexpr int out_bytes(OutType t) { return t == OutType::F32 ? 4 : 1; }

struct OutputDecl {
  const char* name;
  OutType type;
};

// How test and benchmark data of one tensor are drawn: Normal(a = mean, b = sd) or Uniform(a = lo,
// b = hi); logits: shifted to around 1e3 by the large-logits tests (exp overflows unless the row
// maximum is taken first).
struct Domain {
  enum Kind : unsigned char { Normal, Uniform };
  Kind kind = Normal;
  float a = 0.0f, b = 1.0f;
  bool logits = false;
};

struct TensorDomain {
  const char* tensor;  // an input, column parameter or row parameter of the declaration
  Domain domain;
};

struct StageDecl {
  int q;           // statistics produced by this stage
  unsigned reads;  // mask of inputs its contributions read
};

// Upper bounds shared by operand structs and kernels.
inline constexpr int kMaxInputs = 4;
inline constexpr int kMaxColParams = 2;
inline constexpr int kMaxRowParams = 2;
inline constexpr int kMaxOutputs = 2;
inline constexpr int kMaxRowOutputs = 2;
inline constexpr int kMaxStages = 4;
inline constexpr int kMaxStats = 8;

constexpr int popcount(unsigned m) { return m == 0 ? 0 : int(m & 1u) + popcount(m >> 1); }

// The type a kernel stores W's row tensors, column parameters and per-element float outputs in: float,
// unless W is a declaration wrapped with the element it is stored in (kernels/element_access.cuh, Stored<W, E>).
template <class W>
struct element_of {
  using type = float;
};
template <class W>
  requires requires { typename W::element; }
struct element_of<W> {
  using type = typename W::element;
};
template <class W>
using element_t = typename element_of<W>::type;

template <class W>
constexpr int num_stages() { return int(W::stages.size()); }

template <class W>
constexpr int num_stats() {
  int q = 0;
  for (const auto& s : W::stages) q += s.q;
  return q;
}

// Offset of stage l's first statistic in the concatenated statistics vector.
template <class W>
constexpr int stat_offset(int l) {
  int q = 0;
  for (int k = 0; k < l; ++k) q += W::stages[k].q;
  return q;
}

template <class W>
constexpr int max_q() {
  int q = 0;
  for (const auto& s : W::stages) q = s.q > q ? s.q : q;
  return q;
}

template <class W>
constexpr unsigned retained_mask() {
  unsigned m = 0;
  for (const auto& s : W::stages) m |= s.reads;
  return m;
}

// Position of input k among the retained inputs (its shared-memory plane).
template <class W>
constexpr int retained_plane(int k) {
  return popcount(retained_mask<W>() & ((1u << k) - 1u));
}


// Kept contributions are fp32 (a plane of a narrower element type keeps the inputs, and h recomputes).
template <class W>
constexpr bool retains_contribution() {
  return sizeof(element_t<W>) == 4 &&
         requires(float g, const typename W::Ctx& c, float* o) { W::apply_contribution(g, c, o); };
}

// The two halves of the register path (contribute_kept, apply_kept), each declared or not.
template <class W>
constexpr bool declares_contribute_kept = requires(float* v, const typename W::Ctx& c, float* g) { W::contribute_kept(v, c, g); };
template <class W>
constexpr bool declares_apply_kept = requires(const float* v, const float* cp, const typename W::Ctx& c, float* o) {
  W::apply_kept(v, cp, c, o);
};
// Whether the register-resident schedules keep the last stage's work in the registers for h.
template <class W>
constexpr bool keeps_in_registers() {
  return declares_contribute_kept<W> && declares_apply_kept<W>;
}

// Device code may not index a declaration's arrays with a run-time (even if unrolled) index;
// these turn them into integer constants, which it may use freely.
template <class W>
constexpr unsigned max_stats_mask() {  // bit j: statistic j combines with max
  unsigned m = 0;
  for (int j = 0; j < int(W::combine.size()); ++j)
    if (W::combine[j] == Combine::Max) m |= 1u << j;
  return m;
}

template <class W>
constexpr unsigned i8_outputs_mask() {  // bit k: output k is int8
  unsigned m = 0;
  for (int k = 0; k < int(W::outputs.size()); ++k)
    if (W::outputs[k].type == OutType::I8) m |= 1u << k;
  return m;
}

template <class W>
CREDIT_HD constexpr Combine op_of(int j) {
  constexpr unsigned m = max_stats_mask<W>();
  return ((m >> j) & 1u) ? Combine::Max : Combine::Sum;
}

template <class W>
CREDIT_HD constexpr bool output_is_f32(int k) {
  constexpr unsigned m = i8_outputs_mask<W>();
  return !((m >> k) & 1u);
}

// Bytes per element the one-CTA global-reread schedule reads again: every pass over an input
// (each stage's and h's) beyond the one compulsory read of each input.
template <class W>
constexpr int reread_bytes_per_elem() {
  int passes = popcount(W::apply_reads);
  for (const auto& s : W::stages) passes += popcount(s.reads);
  return 4 * (passes - int(W::inputs.size()));
}

// The declared structure, else the one the declaration's reads imply: reduction-reuse when some
// input is read again after statistics over it, a one-pass reduction when each is read once.
template <class W>
constexpr Structure structure_of() {
  if constexpr (requires { W::structure; }) return W::structure;
  return reread_bytes_per_elem<W>() > 0 ? Structure::ReductionReuse : Structure::OnePassReduction;
}

// A stated structure must be what the declaration does: elementwise has no stage, a one-pass
// reduction re-reads nothing, reduction-reuse re-reads something. Scans and selections cannot be
// written in stages of statistics at all (core/whole_row.hpp).
template <class W>
constexpr bool structure_agrees() {
  const bool stageless = num_stages<W>() == 0;
  switch (structure_of<W>()) {
    case Structure::Elementwise: return stageless && W::row_outputs.size() == 0;
    case Structure::OnePassReduction: return !stageless && reread_bytes_per_elem<W>() == 0;
    case Structure::ReductionReuse: return !stageless && reread_bytes_per_elem<W>() > 0;
    case Structure::Scan:
    case Structure::Selection: return false;
  }
  return false;
}

// Compile-time checks every declaration must pass.
template <class W>
constexpr bool declaration_is_valid() {
  const unsigned all = (1u << W::inputs.size()) - 1u;
  if (W::inputs.size() < 1 || W::inputs.size() > kMaxInputs) return false;
  if (W::col_params.size() > kMaxColParams || W::row_params.size() > kMaxRowParams) return false;
  if (W::outputs.size() > kMaxOutputs || W::outputs.size() + W::row_outputs.size() < 1) return false;
  if (W::row_outputs.size() > kMaxRowOutputs) return false;
  if (num_stages<W>() > kMaxStages || !structure_agrees<W>()) return false;
  if (num_stats<W>() != int(W::combine.size()) || num_stats<W>() > kMaxStats) return false;
  for (const auto& s : W::stages)
    if (s.q < 1 || s.reads == 0 || (s.reads & ~all) != 0) return false;
  if (declares_contribute_kept<W> != declares_apply_kept<W> || (keeps_in_registers<W>() && num_stages<W>() < 1))
    return false;  // one half without the other, or nothing to keep
  if constexpr (retains_contribution<W>())
    if (popcount(retained_mask<W>()) != 1 || W::stages[W::stages.size() - 1].q != 1 ||
        (W::apply_reads & ~retained_mask<W>()) != 0 || W::col_params.size() != 0)
      return false;
  return (W::apply_reads & ~all) == 0;
}

}  // namespace credit
