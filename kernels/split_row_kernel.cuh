#pragma once
// The staged and clustered schedules (DESIGN.md section 2) as one kernel: the P CTAs that
// share a row load their slices into shared memory while accumulating stage 1, exchange
// compact partials through the exchange policy X after every stage, and apply h to the
// retained slice. X = LocalExchange is the one-CTA staged kernel; X = DsmemExchange is CREDIT;
// X = GlobalExchange is seed 001's cooperative megakernel (row-scoped barriers in global memory).
#include <utility>

#include "kernels/cta_reduce.cuh"
#include "kernels/exchange.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

template <class W, class X, int l>
__device__ __forceinline__ void split_stage(const RowOperands& op, long long row, const RowSpan& span,
                                            const Planes& pl, float* warp_buf, float* slots,
                                            std::uint64_t* bars, const float* rowp,
                                            typename W::Ctx& ctx) {
  constexpr int T = SplitPolicy::threads;
  float acc[W::stages[l].q];
  if constexpr (l == 0)
    load_and_accumulate_stage0<W, T>(op, span, pl, bars, ctx, acc);
  else
    accumulate_stage<W, l, Source::Shared, T, SplitPolicy::shared_unroll>(op, span, pl, ctx, acc);
  cta_allreduce<W, l, SplitPolicy::warps>(acc, warp_buf + l * SplitPolicy::warps * max_q<W>());
  X::template all_reduce<W, l>(op, row, acc, slots, bars + SplitPolicy::max_chunks);
  W::template finish<l>(acc, op.n, rowp, ctx);
}

template <class W, class X, int... l>
__device__ __forceinline__ void split_stages(const RowOperands& op, long long row, const RowSpan& span,
                                             const Planes& pl, float* warp_buf, float* slots,
                                             std::uint64_t* bars, const float* rowp,
                                             typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  (split_stage<W, X, l>(op, row, span, pl, warp_buf, slots, bars, rowp, ctx), ...);
}

template <class W, class X>
__global__ void __launch_bounds__(SplitPolicy::threads, min_blocks_per_sm(SplitPolicy::threads, num_stats<W>()))
    split_row_kernel(const __grid_constant__ RowOperands op) {
  extern __shared__ float4 smem4[];
  constexpr int R = popcount(retained_mask<W>());
  const int p = X::size(op), c = X::rank(op);
  const long long row = op.row0 + blockIdx.x / p;
  const int stride = plane_floats(op.n, p);
  float* smem = reinterpret_cast<float*>(smem4);
  const Planes pl{smem, stride};
  float* warp_buf = smem + R * stride;
  float* slots = warp_buf + num_stages<W>() * SplitPolicy::warps * max_q<W>();
  // mbarriers: max_chunks for the bulk copy of the slice, then one per stage for the exchange.
  auto* bars = reinterpret_cast<std::uint64_t*>(warp_buf + reduction_floats<W>());
  X::template begin<W>(op, bars + SplitPolicy::max_chunks);

  const Slice s = slice_of(op.n, p, c);
  const RowSpan span(row * op.n, s.lo, s.hi);
  float rowp[kMaxRowParams];
  load_row_params<W>(op, row, rowp);
  typename W::Ctx ctx{};
  split_stages<W, X>(op, row, span, pl, warp_buf, slots, bars, rowp, ctx,
                     std::make_integer_sequence<int, num_stages<W>()>{});
  apply_span<W, Source::Shared, SplitPolicy::threads, SplitPolicy::shared_unroll>(op, span, pl, ctx);
  if (c == 0 && threadIdx.x == 0) store_row_outputs<W>(op, row, ctx);
}

}  // namespace credit::kernels
