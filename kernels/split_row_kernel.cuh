#pragma once
// The staged and clustered schedules (DESIGN.md section 2) as one kernel: the P CTAs that
// share a row load their slices into shared memory while accumulating stage 1, exchange
// compact partials through the exchange policy X after every stage, and apply h to the
// retained slice. X = LocalExchange is the one-CTA staged kernel; X = DsmemExchange is CREDIT;
// X = RowBarrierExchange / GridBarrierExchange is seed 001's cooperative megakernel (partials
// and barriers in global memory), which alone honours the Fig. 6 switches in op.switches.
// Stream = true is the partial schedule: a CTA keeps the first op.keep elements of its slice (the
// span) in shared memory and reads the rest (`rest`) from global memory at every phase.
#include <type_traits>
#include <utility>

#include "kernels/cta_reduce.cuh"
#include "kernels/exchange.cuh"
#include "kernels/global_timer.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

// A phase boundary for credit bench --phases (one untaken branch when op.phase_clock is null).
__device__ __forceinline__ void mark_phase(const RowOperands& op, int mark) {
  if (op.phase_clock != nullptr && threadIdx.x == 0)
    op.phase_clock[(op.row0 * op.split + blockIdx.x) * kPhaseMarks + mark] = global_ns();  // row groups too
}

// Stage l's partials over the streamed part of the slice, folded into acc (the partial schedule).
template <class W, int l>
__device__ __forceinline__ void accumulate_rest(const RowOperands& op, const SpanOf<W>& rest,
                                                const typename W::Ctx& ctx, float (&acc)[W::stages[l].q]) {
  if (rest.hi <= rest.lo) return;  // the same for every thread of the CTA
  constexpr int U = SplitPolicy::stream_unroll(popcount(W::stages[l].reads));
  float more[W::stages[l].q];
  accumulate_stage<W, l, Source::Global, SplitPolicy::threads, U, reversed_pass(l)>(op, rest, PlanesOf<W>{}, ctx, more);
  fold_partials<W, l>(acc, more);
}

template <class W, class X, bool Stream, int l>
__device__ __forceinline__ void split_stage(const RowOperands& op, long long row, const SpanOf<W>& span,
                                            [[maybe_unused]] const SpanOf<W>& rest, const PlanesOf<W>& pl, float* warp_buf,
                                            float* slots, std::uint64_t* bars, const float* rowp,
                                            typename W::Ctx& ctx) {
  constexpr int T = SplitPolicy::threads;
  constexpr bool last = l == num_stages<W>() - 1;
  float acc[W::stages[l].q];
  // Stage 1 of the partial schedule streams the rest while the kept part's bulk copies are in
  // flight, where the CTA keeps two or more planes.
  // A/B on one H200: 1.8-6.5% faster with two or three planes (wvar_bwd, pearson_bwd,
  // softmax_bwd, lars at 4096 x 262144 and 1024 x 1M), 1.5-5% slower with one (layernorm,
  // quant_int8, rms_softmax, rmsnorm at 1024 x 1M).
  constexpr bool overlap = Stream && l == 0 && popcount(retained_mask<W>()) >= 2;
  if constexpr (l == 0) {
    load_and_accumulate_stage0<W, T>(op, span, pl, bars, ctx, acc, [&](float (&a)[W::stages[0].q]) {
      if constexpr (overlap) accumulate_rest<W, 0>(op, rest, ctx, a);
    });
  } else {
    if constexpr (X::through_global)
      if (op.switches & kReloadInputs) copy_planes<W, PlaneCopy::ReloadInputs, T>(op, span, pl);
    accumulate_stage<W, l, Source::Shared, T, SplitPolicy::shared_unroll>(op, span, pl, ctx, acc);
  }
  if constexpr (Stream && !overlap) accumulate_rest<W, l>(op, rest, ctx, acc);
  cta_allreduce<W, l, SplitPolicy::warps>(acc, warp_buf + l * SplitPolicy::warps * max_q<W>());
  mark_phase(op, 1 + 2 * l);
  if constexpr (X::through_global && last)
    if (op.switches & kSpillRetained) copy_planes<W, PlaneCopy::Spill, T>(op, span, pl);
  X::template all_reduce<W, l>(op, row, acc, slots, bars + SplitPolicy::max_chunks);
  if constexpr (X::through_global && last)
    if (op.switches & kSpillRetained) copy_planes<W, PlaneCopy::Unspill, T>(op, span, pl);
  mark_phase(op, 2 + 2 * l);
  W::template finish<l>(acc, op.n, rowp, ctx);
}

template <class W, class X, bool Stream, int... l>  // no stage at all in an elementwise declaration
__device__ __forceinline__ void split_stages([[maybe_unused]] const RowOperands& op, [[maybe_unused]] long long row,
                                             [[maybe_unused]] const SpanOf<W>& span, [[maybe_unused]] const SpanOf<W>& rest,
                                             [[maybe_unused]] const PlanesOf<W>& pl,
                                             [[maybe_unused]] float* warp_buf, [[maybe_unused]] float* slots,
                                             [[maybe_unused]] std::uint64_t* bars, [[maybe_unused]] const float* rowp,
                                             [[maybe_unused]] typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  (split_stage<W, X, Stream, l>(op, row, span, rest, pl, warp_buf, slots, bars, rowp, ctx), ...);
}

// Occupancy the compiler must keep: a cluster kernel with one statistic and column parameters
// (rmsnorm) held at 32 registers, eight CTAs per SM, although its column loads carry an L2 hint
// (35 registers otherwise, six CTAs: its clusters of 8 and 16 at 7-8 CTAs per SM took 1.07-1.09x
// their time there; H200, 2026-12-02). One input only: add_rmsnorm's two spill 56 bytes at 32 registers.
// A 16-bit element type unpacks 8 elements a group: the next register budget up, where 48 (32 for the lean
// cluster) a thread spilled 4-40 bytes (rmsnorm, layernorm, add_rmsnorm; ptxas -warn-spills).
template <class W, class X>
constexpr int split_min_blocks() {
  constexpr bool narrow = sizeof(element_t<W>) < 4;
  if (!narrow && std::is_same_v<X, DsmemExchange> && num_stats<W>() <= 1 &&
      W::col_params.size() > 0 && W::inputs.size() == 1)
    return 2048 / SplitPolicy::threads;
  return min_blocks_per_sm(SplitPolicy::threads, num_stats<W>() + X::pressure + (narrow ? 4 : 0));
}

// The partial kernel's shared memory holds it at StreamCtas CTAs per SM (the schedule's
// partial_ctas): its registers may grow to that occupancy, for the streamed part's loads in flight.
template <class W, class X, bool Stream = false, int StreamCtas = kPartialCtasPerSm>
__global__ void __launch_bounds__(SplitPolicy::threads, Stream ? StreamCtas : split_min_blocks<W, X>())
    split_row_kernel(const __grid_constant__ RowOperands op) {
  extern __shared__ float4 smem4[];
  mark_phase(op, 0);
  constexpr int R = popcount(retained_mask<W>());
  const int p = X::size(op);
  using E = element_t<W>;
  constexpr int G = SpanOf<W>::group;
  // fp32 keeps plane_floats (the same count): with plane_elems the compiler lost the warp partials' 16-byte loads
  // after the planes (PTX diffed), plane_floats' bound lets it keep them.
  const int stride = G == 4 ? (Stream ? plane_floats(op.n, p, op.keep) : plane_floats(op.n, p))
                            : (Stream ? plane_elems(op.n, p, G, op.keep) : plane_elems(op.n, p, G));
  E* smem = reinterpret_cast<E*>(smem4);
  const PlanesOf<W> pl{smem, stride};
  float* warp_buf = reinterpret_cast<float*>(smem + R * stride);  // planes of whole 16-byte groups
  float* slots = warp_buf + num_stages<W>() * SplitPolicy::warps * max_q<W>();
  // mbarriers: max_chunks for the bulk copy of the slice, then one per stage for the exchange.
  auto* bars = reinterpret_cast<std::uint64_t*>(warp_buf + reduction_floats<W>());
  const long long row = op.row0 + X::row(op, bars + SplitPolicy::max_chunks);
  const int c = X::rank(op, bars + SplitPolicy::max_chunks);
  X::template begin<W>(op, bars + SplitPolicy::max_chunks);

  const Slice s = slice_of(op.n, p, c, G);
  const int mid = Stream && s.hi - s.lo > op.keep ? s.lo + op.keep : s.hi;
  const SpanOf<W> span(row * op.n, s.lo, mid);  // kept in shared memory
  const SpanOf<W> rest(row * op.n, mid, s.hi);  // streamed (empty unless Stream)
  float rowp[kMaxRowParams];
  load_row_params<W>(op, row, rowp);
  typename W::Ctx ctx{};
  split_stages<W, X, Stream>(op, row, span, rest, pl, warp_buf, slots, bars, rowp, ctx,
                             std::make_integer_sequence<int, num_stages<W>()>{});
  if constexpr (retains_contribution<W>()) {
    apply_kept_span<W, SplitPolicy::threads, SplitPolicy::shared_unroll>(op, span, pl, ctx);
  } else if constexpr (W::outputs.size() > 0) {  // a row reduction writes its row outputs only
    if constexpr (X::through_global)
      if (op.switches & kReloadInputs) copy_planes<W, PlaneCopy::ReloadInputs, SplitPolicy::threads>(op, span, pl);
    apply_span<W, Source::Shared, SplitPolicy::threads, SplitPolicy::kept_apply_unroll(int(W::col_params.size()))>(
        op, span, pl, ctx);
  }
  if constexpr (Stream && W::outputs.size() > 0)
    if (rest.hi > rest.lo)
      apply_span<W, Source::Global, SplitPolicy::threads,
                 SplitPolicy::stream_unroll(popcount(W::apply_reads) + int(W::col_params.size())),
                 reversed_pass(num_stages<W>())>(op, rest, PlanesOf<W>{}, ctx);
  if (c == 0 && threadIdx.x == 0) store_row_outputs<W>(op, row, ctx);
  mark_phase(op, 2 * num_stages<W>() + 1);
}

}  // namespace credit::kernels
