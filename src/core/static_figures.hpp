#pragma once
// The static figures of a workload (DESIGN.md section 3), derived from its declaration.
#include <vector>

#include "core/element_type.hpp"
#include "core/split.hpp"
#include "core/structure.hpp"
#include "core/whole_row.hpp"
#include "core/workload.hpp"

namespace credit {

struct StaticFigures {
  Structure structure = Structure::ReductionReuse;  // what the model's structural rules look at
  int L = 0;               // stages
  std::vector<int> q;      // statistics per stage
  int Q = 0;               // sum of q
  int s = 4;               // bytes per scalar statistic
  int b_keep = 0;          // retained bytes per element
  long s_scratch = 0;      // fixed scratch per CTA, bytes
  int b_reread = 0;        // bytes per element the global-reread schedule reads again
  int compulsory = 0;      // bytes per element read once and written once
  int row_scalar_bytes = 0;  // per-row scalar inputs and outputs
  int col_bytes = 0;         // bytes per element of column parameters (read from L2 by every row)
  ElementType element = ElementType::F32;  // the type these bytes are counted in
  int K() const { return 2 * L; }  // cluster barriers per row in the paper's protocol
  // Per-row bytes common to the baseline and clustered schedules. Column parameters
  // (LayerNorm's gamma and beta) are shared by all rows and stay in L2: not counted.
  double d_fixed(double n) const { return n * compulsory + row_scalar_bytes; }
};

// In element type e (core/element_type.hpp): inputs, column parameters, per-element fp32 outputs and what is kept
// of them take element_bytes(e) each; int8 outputs one; per-row scalars, statistics and the scratch's reduction
// floats stay fp32. The declaration's own figures (split.hpp, workload.hpp) count 4 B per element: f32.
template <class W>
StaticFigures static_figures_of(ElementType e = ElementType::F32) {
  StaticFigures f;
  f.element = e;
  const int eb = element_bytes(e);
  const int n_in = int(W::inputs.size());
  int out = 0;
  for (const auto& o : W::outputs) out += o.type == OutType::F32 ? eb : out_bytes(o.type);
  f.compulsory = eb * n_in + out;
  f.row_scalar_bytes = 4 * int(W::row_outputs.size());
  if constexpr (is_whole_row<W>()) {
    f.structure = W::structure;
    return f;  // no stages, nothing retained, nothing read again: only the compulsory bytes
  } else {
    f.structure = structure_of<W>();
    f.L = num_stages<W>();
    for (const auto& st : W::stages) f.q.push_back(st.q);
    f.Q = num_stats<W>();
    f.b_keep = retained_bytes_per_elem<W>() / 4 * eb;
    // The same in every type: the planes' slack is 32 bytes each (split.hpp), the rest fp32 or mbarriers.
    f.s_scratch = scratch_bytes<W>();
    f.b_reread = reread_bytes_per_elem<W>() / 4 * eb;
    f.row_scalar_bytes += 4 * int(W::row_params.size());
    f.col_bytes = eb * int(W::col_params.size());
    return f;
  }
}

}  // namespace credit
