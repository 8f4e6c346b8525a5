#pragma once
// The static figures of a workload (DESIGN.md section 3), derived from its declaration.
#include <vector>

#include "core/split.hpp"
#include "core/workload.hpp"

namespace credit {

// What the model's structural rules look at. The seven declared workloads are all
// reduction-reuse; the other classes exist so the model can reject them by construction.
enum class Structure { ReductionReuse, Elementwise, OnePassReduction, Scan, Selection };

struct StaticFigures {
  Structure structure = Structure::ReductionReuse;
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
  int K() const { return 2 * L; }  // cluster barriers per row in the paper's protocol
  // Per-row bytes common to the baseline and clustered schedules. Column parameters
  // (LayerNorm's gamma and beta) are shared by all rows and stay in L2: not counted.
  double d_fixed(double n) const { return n * compulsory + row_scalar_bytes; }
};

template <class W>
StaticFigures static_figures_of() {
  StaticFigures f;
  f.L = num_stages<W>();
  for (const auto& st : W::stages) f.q.push_back(st.q);
  f.Q = num_stats<W>();
  f.b_keep = retained_bytes_per_elem<W>();
  f.s_scratch = scratch_bytes<W>();
  int passes = popcount(W::apply_reads);
  for (const auto& st : W::stages) passes += popcount(st.reads);
  const int n_in = int(W::inputs.size());
  f.b_reread = 4 * (passes - n_in);
  int out = 0;
  for (const auto& o : W::outputs) out += out_bytes(o.type);
  f.compulsory = 4 * n_in + out;
  f.row_scalar_bytes = 4 * int(W::row_params.size() + W::row_outputs.size());
  f.col_bytes = 4 * int(W::col_params.size());
  // Reduction-reuse when some input is read again after statistics over it (b_reread > 0); a
  // declaration that reads each input once is a one-pass reduction: nothing for a cluster to save.
  f.structure = f.b_reread > 0 ? Structure::ReductionReuse : Structure::OnePassReduction;
  return f;
}

}  // namespace credit
