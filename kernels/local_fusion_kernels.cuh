#pragma once
// Seed 001's local fusion, for every declaration: L + 1 kernels in stream order. Kernel l < L
// gives each CTA one tile of a row (P tiles per row): it combines the tile partials of the
// earlier stages from global memory, re-reads its tile and writes its stage-l partials
// partials[row][stat][tile]; kernel L combines them all, re-reads the tile and applies h. The
// kernel boundaries are the row barriers: nothing stays in shared memory between phases.
#include "kernels/cta_reduce.cuh"
#include "kernels/global_exchange.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

struct FusionPolicy {
  static constexpr int threads = 256;
  static constexpr int warps = threads / 32;
};

// Folds the tile partials of stages [0, L) of the row into ctx, in tile order (every CTA
// combines them identically).
template <class W, int... l>
__device__ __forceinline__ void fold_tile_partials(const RowOperands& op, long long row, const float* rowp,
                                                   typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  const int p = op.split;
  auto fold = [&]<int s>(std::integer_sequence<int, s>) {
    constexpr int q = W::stages[s].q;
    constexpr int off = stat_offset<W>(s);
    float r[q];
    combine_row_partials<W, off, q>(op.partials + (row * num_stats<W>() + off) * p, p, r);
    W::template finish<s>(r, op.n, rowp, ctx);
  };
  (fold(std::integer_sequence<int, l>{}), ...);
}

// This CTA's tile (tile c of row `row`, whole 16-byte groups of the element type) and the row state of the stages
// folded so far.
template <class W>
struct Tile {
  static constexpr int G = SpanOf<W>::group;
  int c;
  long long row;
  SpanOf<W> span;
  typename W::Ctx ctx{};
  template <int... l>
  __device__ Tile(const RowOperands& op, std::integer_sequence<int, l...> folded)
      : c(int(blockIdx.x % unsigned(op.split))),
        row(blockIdx.x / unsigned(op.split)),
        span(row * op.n, slice_of(op.n, op.split, c, G).lo, slice_of(op.n, op.split, c, G).hi) {
    float rowp[kMaxRowParams];
    load_row_params<W>(op, row, rowp);
    fold_tile_partials<W>(op, row, rowp, ctx, folded);
  }
};

template <class W, int l>
__global__ void __launch_bounds__(FusionPolicy::threads) fused_stage_kernel(const __grid_constant__ RowOperands op) {
  __shared__ float warp_buf[FusionPolicy::warps * max_q<W>()];
  constexpr int q = W::stages[l].q;
  constexpr int off = stat_offset<W>(l);
  const Tile<W> t(op, std::make_integer_sequence<int, l>{});
  float acc[q];
  accumulate_stage<W, l, Source::Global, FusionPolicy::threads, SplitPolicy::global_unroll(popcount(W::stages[l].reads))>(
      op, t.span, PlanesOf<W>{}, t.ctx, acc);
  cta_allreduce<W, l, FusionPolicy::warps>(acc, warp_buf);
  if (threadIdx.x == 0)
#pragma unroll
    for (int j = 0; j < q; ++j) op.partials[(t.row * num_stats<W>() + off + j) * op.split + t.c] = acc[j];
}

template <class W>
__global__ void __launch_bounds__(FusionPolicy::threads) fused_apply_kernel(const __grid_constant__ RowOperands op) {
  const Tile<W> t(op, std::make_integer_sequence<int, num_stages<W>()>{});
  apply_span<W, Source::Global, FusionPolicy::threads,
             SplitPolicy::global_unroll(popcount(W::apply_reads) + int(W::col_params.size()))>(op, t.span, PlanesOf<W>{},
                                                                                               t.ctx);
  if (t.c == 0 && threadIdx.x == 0) store_row_outputs<W>(op, t.row, t.ctx);
}

}  // namespace credit::kernels
