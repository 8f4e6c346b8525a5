#pragma once
// One CTA per row, every stage re-reads the row from global memory (the paper's baseline
// when the row does not fit in one CTA's shared memory).
#include <utility>

#include "kernels/cta_reduce.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

struct RereadPolicy {
  static constexpr int threads = 512;

  static constexpr int warps = threads / 32;
};

template <class W, int l>
__device__ __forceinline__ void reread_stage(const RowOperands& op, const SpanOf<W>& span,
                                             float* warp_buf, const float* rowp,
                                             typename W::Ctx& ctx) {
  float acc[W::stages[l].q];
  constexpr int U = SplitPolicy::global_unroll(popcount(W::stages[l].reads));
  accumulate_stage<W, l, Source::Global, RereadPolicy::threads, U, reversed_pass(l)>(op, span, PlanesOf<W>{}, ctx, acc);
  cta_allreduce<W, l, RereadPolicy::warps>(acc, warp_buf + l * RereadPolicy::warps * max_q<W>());
  W::template finish<l>(acc, op.n, rowp, ctx);
}

template <class W, int... l>  // no stage at all in an elementwise declaration
__device__ __forceinline__ void reread_stages([[maybe_unused]] const RowOperands& op, [[maybe_unused]] const SpanOf<W>& span,
                                              [[maybe_unused]] float* warp_buf, [[maybe_unused]] const float* rowp,
                                              [[maybe_unused]] typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  (reread_stage<W, l>(op, span, warp_buf, rowp, ctx), ...);
}

template <class W>
__global__ void __launch_bounds__(RereadPolicy::threads, min_blocks_per_sm(RereadPolicy::threads, num_stats<W>()))
    global_reread_kernel(const __grid_constant__ RowOperands op) {
  constexpr int warp_floats = num_stages<W>() * RereadPolicy::warps * max_q<W>();
  __shared__ float warp_buf[warp_floats > 0 ? warp_floats : 1];  // an elementwise declaration has no stage
  const long long row = blockIdx.x;
  const SpanOf<W> span(row * op.n, 0, op.n);
  float rowp[kMaxRowParams];
  load_row_params<W>(op, row, rowp);
  typename W::Ctx ctx{};
  reread_stages<W>(op, span, warp_buf, rowp, ctx, std::make_integer_sequence<int, num_stages<W>()>{});
  if constexpr (W::outputs.size() > 0)  // a row reduction writes its row outputs only
    apply_span<W, Source::Global, RereadPolicy::threads,
               SplitPolicy::global_unroll(popcount(W::apply_reads) + int(W::col_params.size())),
               reversed_pass(num_stages<W>())>(op, span, PlanesOf<W>{}, ctx);
  if (threadIdx.x == 0) store_row_outputs<W>(op, row, ctx);
}

}  // namespace credit::kernels
