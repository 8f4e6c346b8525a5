#pragma once
// split_pipelined: the split-row kernel over P CTAs per row without a cluster, as split_global,
// made persistent and double-buffered so that a CTA's exchanges do not leave its SM's HBM traffic idle.
//
// Why: at N >= 2^18 split_global's time is 20-38% row barriers through global memory (measured 2026-12-05).
// Its CTAs keep one slice each and take seats as others leave, so a row's first
// CTAs hold their SM's shared memory while its last ones are not yet seated, and a CTA waiting at a barrier
// has nothing in flight. Here the grid is G groups of P CTAs that the device holds at once (a cooperative
// launch); group g serves rows g, g + G, ... and each CTA keeps two slice buffers: while it accumulates,
// exchanges, applies and stores row r from one, the copy engine fills the other with its slice of row
// r + G, put in flight as row r begins. The loads of the next row overlap this row's barriers and stores.
//
// The exchange is split_global's row barrier (RowBarrier<true>, bounded) with the rank from blockIdx: the
// counters and partials are per row, so consecutive rows of a group never share them, and the last CTA of
// a row to depart zeroes its counters for the next launch.
#include "kernels/cta_reduce.cuh"
#include "kernels/global_exchange.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

// The seat of a persistent CTA: rank by blockIdx within its group of P; the row is the loop's.
struct GroupSeat {
  __device__ static int rank(const RowOperands& op, std::uint64_t*) { return int(blockIdx.x % unsigned(op.split)); }
};
using PipelinedExchange = GlobalExchange<RowBarrier<true>, GroupSeat>;

// Registers: shared memory holds the kernel at one to three CTAs of 256 threads per SM (two slices each),
// so 85 registers a thread are free to take.
inline constexpr int kPipelinedMinBlocks = 3 < 2048 / SplitPolicy::threads ? 3 : 2048 / SplitPolicy::threads;

// One stage of row `row` over its slice in buffer `pl`: stage 0 takes the chunks as their copies land.
template <class W, int l>
__device__ __forceinline__ void pipelined_stage(const RowOperands& op, long long row, const RowSpan& span,
                                                const Planes& pl, float* warp_buf, std::uint64_t* bars, ChunkPlan plan,
                                                unsigned parity, const float* rowp, typename W::Ctx& ctx) {
  constexpr int T = SplitPolicy::threads;
  float acc[W::stages[l].q];
  if constexpr (l == 0) {
    init_partials<W, 0>(acc);
    load_and_accumulate_edges<W>(op, span, pl, ctx, acc);
    accumulate_arriving_chunks<W, T>(span, pl, bars, plan, parity, ctx, acc);
  } else {
    accumulate_stage<W, l, Source::Shared, T, SplitPolicy::shared_unroll>(op, span, pl, ctx, acc);
  }
  cta_allreduce<W, l, SplitPolicy::warps>(acc, warp_buf + l * SplitPolicy::warps * max_q<W>());
  PipelinedExchange::template all_reduce<W, l>(op, row, acc, nullptr, nullptr);
  W::template finish<l>(acc, op.n, rowp, ctx);
}

template <class W, int... l>
__device__ __forceinline__ void pipelined_stages(const RowOperands& op, long long row, const RowSpan& span,
                                                 const Planes& pl, float* warp_buf, std::uint64_t* bars,
                                                 ChunkPlan plan, unsigned parity, const float* rowp,
                                                 typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  (pipelined_stage<W, l>(op, row, span, pl, warp_buf, bars, plan, parity, rowp, ctx), ...);
}

// Shared memory: buffer 0's planes, buffer 1's planes, the reduction floats, then buffer 0's chunk
// mbarriers and buffer 1's (core/split.hpp, pipelined_smem_bytes). gridDim.x = G x P, op.row0 = 0.
template <class W>
__global__ void __launch_bounds__(SplitPolicy::threads, kPipelinedMinBlocks)
    pipelined_split_kernel(const __grid_constant__ RowOperands op) {
  static_assert(num_stages<W>() > 0, "a row reduction or normalisation: at least one exchange");
  extern __shared__ float4 smem4[];
  constexpr int R = popcount(retained_mask<W>());
  const int p = op.split;
  const int stride = plane_floats(op.n, p);
  float* smem = reinterpret_cast<float*>(smem4);
  // Buffer b: its planes at smem + b R stride, its chunk mbarriers at bars + b max_chunks (arithmetic, not
  // arrays indexed by b, which would go to local memory).
  auto buf = [&](int b) { return Planes{smem + b * R * stride, stride}; };
  float* warp_buf = smem + 2 * R * stride;
  auto* bars = reinterpret_cast<std::uint64_t*>(warp_buf + reduction_floats<W>());
  auto buf_bars = [&](int b) { return bars + b * SplitPolicy::max_chunks; };

  const int c = int(blockIdx.x % unsigned(p));
  const long long groups = gridDim.x / unsigned(p);
  const Slice s = slice_of(op.n, p, c);
  // One plan for every row (core/split.hpp); a chunk a row's groups do not reach completes its phase with a
  // plain arrival.
  const ChunkPlan plan = slice_chunk_plan(s.hi - s.lo);
  if (threadIdx.x == 0) {
    for (int ch = 0; ch < plan.chunks; ++ch) {
      mbarrier_init(buf_bars(0) + ch, 1);
      mbarrier_init(buf_bars(1) + ch, 1);
    }
    mbarrier_init_fence();
  }
  __syncthreads();  // the mbarriers are initialised before anyone arrives or waits on them

  long long row = blockIdx.x / unsigned(p);
  if (threadIdx.x == 0 && row < op.rows)
    issue_slice_copies<W, true>(op, RowSpan(row * op.n, s.lo, s.hi), buf(0), buf_bars(0), plan);
  for (int k = 0; row < op.rows; ++k, row += groups) {
    const int b = k & 1;
    const long long next = row + groups;
    // The other buffer was last used in the previous iteration, whose fence and CTA barrier ordered every
    // thread's accesses before these copies: put the next row's slice in flight.
    if (threadIdx.x == 0 && next < op.rows) {
      issue_slice_copies<W, true>(op, RowSpan(next * op.n, s.lo, s.hi), buf(b ^ 1), buf_bars(b ^ 1), plan);
    }
    const RowSpan span(row * op.n, s.lo, s.hi);
    float rowp[kMaxRowParams];
    load_row_params<W>(op, row, rowp);
    typename W::Ctx ctx{};
    pipelined_stages<W>(op, row, span, buf(b), warp_buf, buf_bars(b), plan, unsigned(k >> 1) & 1u, rowp, ctx,
                        std::make_integer_sequence<int, num_stages<W>()>{});
    if constexpr (retains_contribution<W>())
      apply_kept_span<W, SplitPolicy::threads, SplitPolicy::shared_unroll>(op, span, buf(b), ctx);
    else if constexpr (W::outputs.size() > 0)
      apply_span<W, Source::Shared, SplitPolicy::threads, SplitPolicy::kept_apply_unroll(int(W::col_params.size()))>(
          op, span, buf(b), ctx);
    if (c == 0 && threadIdx.x == 0) store_row_outputs<W>(op, row, ctx);
    // Every thread is done with buf(b), and has ordered its own accesses to it (reads, and the writes of the
    // scalar edges and of kept contributions) before the copy engine's refill in the next iteration.
    fence_proxy_async_shared();
    __syncthreads();
  }
}

}  // namespace credit::kernels
