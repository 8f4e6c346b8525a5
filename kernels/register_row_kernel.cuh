#pragma once
// The register-resident schedules: each CTA reads every input of its span once, straight into
// registers (G 16-byte groups per thread and input, all loads in flight at once: 4 floats, or 8 bf16 /
// fp16 elements of a Stored<W, E> instantiation, unpacked to fp32 as used), runs every stage
// and h from the registers and writes the outputs. No shared-memory staging, no bulk copy: a CTA
// barrier per stage for the reduction. X = LocalExchange: one CTA per row (short rows);
// X = DsmemExchange: the P CTAs of a cluster split the row into slices (slice_of) and exchange the
// statistics through DSMEM after each stage, as the clustered kernel does (cluster_registers).
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/cta_reduce.cuh"
#include "kernels/exchange.cuh"
#include "kernels/row_phases.cuh"

namespace credit::kernels {

// Column parameters of every group are loaded before the first store by CTAs of at most this many
// threads (up to 255 registers each); larger CTAs, capped at 128 or 64 registers, load each group's
// just before its use. layernorm, A/B at M = 256 / 4096: 256 x 8 at 8192 1.17x /
// 1.01x faster, 256 x 4 at 4096 1.09x / 1.00x; 512 x 4 at 8192 1.03x / 0.94x, 1024 x 4 at 16384 1.02x / 0.95x.
inline constexpr int kRegisterColPrefetchThreads = 256;
template <int T>
inline constexpr bool col_prefetch = T <= kRegisterColPrefetchThreads;  // column parameters up front

// The row's one read, streaming (ld.global.cs): the read-only path is within 1-2% but lars at 8192.
template <class P>  // float4, or 16 bytes of a narrower type
__device__ __forceinline__ P load_once(const P* p) {
  return __ldcs(p);
}

// Registers per thread beyond the row's: 1.03-1.12x faster than leaving the count to the compiler, geomean at M = 1024.
inline constexpr int kRegisterSlack = 16;

template <class W, int T, int G>
struct RegisterRow {
  static constexpr int NI = n_inputs<W>;
  static constexpr unsigned held = retained_mask<W>() | W::apply_reads;  // inputs read once, kept
  Vec<NI, Pack<element_t<W>>> v[G];  // groups threadIdx.x + g * T of the row, as stored (4 floats or 8 bf16 / fp16)
  float edge[NI > 0 ? NI : 1];  // the thread's scalar head or tail element, if any
};

// CTAs per SM the kernel asks the compiler to fit (__launch_bounds__): as many as the thread limit
// allows while each thread still has its row's registers (4 G per retained input, 4 G per column
// parameter held up front) plus kRegisterSlack for the rest. Fewer registers than the
// compiler would take put more rows in one wave (1024 rows of 2048: 5 CTAs of 256 threads per SM
// at 44 registers is two waves, 8 at 32 one). A/B against the compiler's choice (slack 0), one
// machine, every workload: slack 16 1.03-1.12x geomean at M = 1024, up to
// 1.6x at N = 16384 (two CTAs of 1024 threads per SM instead of one), 0.98x at 4096 x 2048.
// (Hopper: 64K registers and 2048 threads per SM.)
// A cluster's CTA carries its exchange besides (the slice's bounds, its rank, the slots and mbarriers):
// 16 registers more, without which ptxas spilled 20-80 bytes in most of its variants.
template <class W, int T, int G, class X = LocalExchange>
constexpr int register_min_blocks() {
  const int held = popcount(RegisterRow<W, T, G>::held);
  const int cols = col_prefetch<T> ? int(W::col_params.size()) : 0;
  const int slack = kRegisterSlack + (std::is_same_v<X, LocalExchange> ? 0 : 16);
  const int want = (4 * G * (held + cols) + slack + 7) / 8 * 8;
  const int by_regs = 65536 / (T * want), by_threads = 2048 / T;
  return by_regs < 1 ? 1 : by_regs < by_threads ? by_regs : by_threads;
}

// Whether stage l leaves its contribution in the registers for h (apply_contribution), as the clustered
// kernel leaves it in shared memory: the last stage of a declaration with one input and one statistic there.
template <class W, int l>
inline constexpr bool kept_contribution =
    retains_contribution<W>() && l == num_stages<W>() - 1 && n_inputs<W> == 1 && W::stages[l].q == 1;

// Whether the last stage overwrites an element's inputs with what h needs of them (contribute_kept) and
// h reads those (apply_kept): softmax_bwd's and softmax_dropout_bwd's exponentials, not computed twice. fp32 only:
// a group of a narrower type has no room for fp32 values (h computes them again, as the clustered kernel does).
// 1.00-1.03x faster than computing them twice, geomean per schedule and M.
template <class W, int l>
inline constexpr bool kept_inputs = sizeof(element_t<W>) == 4 && keeps_in_registers<W>() &&
                                    l == num_stages<W>() - 1 && !kept_contribution<W, l>;

// The exchange's shared memory: per-statistic slots for the largest cluster and one mbarrier per stage
// (DsmemExchange); nothing for one CTA per row.
template <class W, class X>
struct ExchangeSmem {
  static constexpr bool used = !std::is_same_v<X, LocalExchange>;
  static constexpr int slot_floats = used ? (num_stats<W>() > 0 ? num_stats<W>() : 1) * SplitPolicy::max_cluster : 1;
  static constexpr int bars = used && num_stages<W>() > 0 ? num_stages<W>() : 1;
};

template <class W, class X, int l, int T, int G>
__device__ __forceinline__ void register_stage(const RowOperands& op, long long row, const SpanOf<W>& span,
                                               RegisterRow<W, T, G>& r, bool has_edge, float* warp_buf,
                                               float* slots, std::uint64_t* xbars, const float* rowp,
                                               typename W::Ctx& ctx) {
  using E = element_t<W>;
  constexpr int NI = n_inputs<W>;
  float acc[W::stages[l].q];
  init_partials<W, l>(acc);
  // The last stage keeps its contribution in place of the input where h needs only it
  // (retains_contribution: rms_softmax's exponentials, so h does not compute them again).
  constexpr bool keep = kept_contribution<W, l>;
  constexpr bool keep_inputs = kept_inputs<W, l>;
  auto add = [&](float* x) {
    if constexpr (keep_inputs) {
      float g[W::stages[l].q];
      W::contribute_kept(x, ctx, g);
      fold_partials<W, l>(acc, g);
    } else if constexpr (keep) {
      float g[1];
      W::template contribute<l>(x, ctx, g);
      fold_partials<W, l>(acc, g);
      x[0] = g[0];
    } else {
      add_contribution<W, l>(acc, x, ctx);
    }
  };
  const int groups = span.groups();
#pragma unroll
  for (int g = 0; g < G; ++g) {
    if (int(threadIdx.x) + g * T >= groups) break;
#pragma unroll
    for (int e = 0; e < group_elems<E>; ++e) {
      float x[NI];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane<E>(r.v[g].x[k], e);
      add(x);
      if constexpr (keep || keep_inputs) {  // fp32 only (retains_contribution, kept_inputs)
        if constexpr (keep) set_lane(r.v[g].x[0], e, x[0]);
        if constexpr (keep_inputs)
#pragma unroll
          for (int k = 0; k < NI; ++k) set_lane(r.v[g].x[k], e, x[k]);
      }
    }
  }
  if (has_edge) add(r.edge);
  cta_allreduce<W, l, T / 32>(acc, warp_buf + l * (T / 32) * max_q<W>());
  X::template all_reduce<W, l>(op, row, acc, slots, xbars);
  W::template finish<l>(acc, op.n, rowp, ctx);
}

template <class W, class X, int T, int G, int... l>
__device__ __forceinline__ void register_stages(const RowOperands& op, long long row, const SpanOf<W>& span,
                                                RegisterRow<W, T, G>& r, bool has_edge, float* warp_buf,
                                                float* slots, std::uint64_t* xbars, const float* rowp,
                                                typename W::Ctx& ctx, std::integer_sequence<int, l...>) {
  (register_stage<W, X, l, T, G>(op, row, span, r, has_edge, warp_buf, slots, xbars, rowp, ctx), ...);
}

// The kernel's body.
template <class W, int T, int G, class X>
__device__ __forceinline__ void register_row(const RowOperands& op, float* warp_buf, float* slots, std::uint64_t* xbars) {
  using Row = RegisterRow<W, T, G>;
  using E = element_t<W>;
  using P = Pack<E>;
  using Span = SpanOf<W>;
  constexpr int GE = group_elems<E>;  // elements per 16-byte group
  constexpr int NI = n_inputs<W>;
  constexpr int NC = int(W::col_params.size());
  constexpr int NO = int(W::outputs.size());
  // Begun before the row's loads: the peers' cluster barrier arrival overlaps them.
  X::template begin<W>(op, xbars);
  constexpr bool local = std::is_same_v<X, LocalExchange>;  // one CTA per row: the whole row, nothing to compute
  const int p = local ? 1 : X::size(op), c = local ? 0 : X::rank(op);
  const long long row = local ? (long long)blockIdx.x : (long long)(blockIdx.x / unsigned(p));
  const Slice sl = local ? Slice{0, op.n} : slice_of(op.n, p, c, GE);
  const Span span(row * op.n, sl.lo, sl.hi);
  const int groups = span.groups();
  Row r;
  // Every load of the row first: G x NI 16-byte loads in flight per thread.
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const int gi = int(threadIdx.x) + g * T;
#pragma unroll
    for (int k = 0; k < NI; ++k) {
      r.v[g].x[k] = P{};
      if (gi < groups && ((Row::held >> k) & 1u))
        r.v[g].x[k] = load_once(reinterpret_cast<const P*>(in_of<W>(op, k) + span.base + span.group_elem(gi)));
    }
  }
  // Column parameters (layernorm's gamma and beta) of every group held in registers where they allow
  // (else loaded one group at a time between the stores: an L2 round trip each, in series). Issued
  // with the row's loads, their round trip overlaps the row's instead of following the stages (1.03x faster,
  // geomean for layernorm and rmsnorm at M = 1024).
  constexpr bool prefetch = col_prefetch<T>;
  const bool col_vec = (op.n & (GE - 1)) == 0;  // column vectors are 16-byte aligned only then
  auto load_col = [&](int k, int i) -> P {
    const E* cp = col_of<W>(op, k) + i;
    if (col_vec) return __ldg(reinterpret_cast<const P*>(cp));
    return gather_group(cp, [](const auto* q) { return __ldg(q); });
  };
  P col[G][NC > 0 ? NC : 1];
  auto load_cols = [&] {
    if (NC > 0 && prefetch && groups > 0)
#pragma unroll
      for (int g = 0; g < G; ++g) {
        const int i = span.group_elem(min(int(threadIdx.x) + g * T, groups - 1));  // a group of the row: no fault
#pragma unroll
        for (int k = 0; k < NC; ++k) col[g][k] = load_col(k, i);
      }
  };
  load_cols();
  const bool has_edge = int(threadIdx.x) < span.edge_count();
  const int edge_i = has_edge ? span.edge_elem(threadIdx.x) : 0;
#pragma unroll
  for (int k = 0; k < NI; ++k)
    r.edge[k] = has_edge && ((Row::held >> k) & 1u) ? to_float(in_of<W>(op, k)[span.base + edge_i]) : 0.f;
  float rowp[kMaxRowParams];
  load_row_params<W>(op, row, rowp);
  typename W::Ctx ctx{};
  register_stages<W, X, T, G>(op, row, span, r, has_edge, warp_buf, slots, xbars, rowp, ctx,
                              std::make_integer_sequence<int, num_stages<W>()>{});

  auto apply_or_kept = [&](const float* x, const float* cp, float* y) {
    if constexpr (kept_contribution<W, num_stages<W>() - 1>) W::apply_contribution(x[0], ctx, y);
    else if constexpr (kept_inputs<W, num_stages<W>() - 1>) W::apply_kept(x, cp, ctx, y);
    else W::apply(x, cp, ctx, y);
  };
#pragma unroll
  for (int g = 0; g < G; ++g) {
    const int gi = int(threadIdx.x) + g * T;
    if (gi >= groups) break;
    const int i = span.group_elem(gi);
    const long long at = span.base + i;
    if constexpr (!prefetch)
#pragma unroll
      for (int k = 0; k < NC; ++k) col[g][k] = load_col(k, i);
    float o[NO][GE];
#pragma unroll
    for (int e = 0; e < GE; ++e) {
      float x[NI], cp[NC > 0 ? NC : 1], y[NO];
#pragma unroll
      for (int k = 0; k < NI; ++k) x[k] = lane<E>(r.v[g].x[k], e);
#pragma unroll
      for (int k = 0; k < NC; ++k) cp[k] = lane<E>(col[g][k], e);
      apply_or_kept(x, cp, y);
#pragma unroll
      for (int k = 0; k < NO; ++k) o[k][e] = y[k];
    }
    store_group<W>(op, at, o);
  }
  if (has_edge) {
    const long long at = span.base + edge_i;
    float cp[NC > 0 ? NC : 1] = {}, y[NO];
#pragma unroll
    for (int k = 0; k < NC; ++k) cp[k] = to_float(col_of<W>(op, k)[edge_i]);
    apply_or_kept(r.edge, cp, y);
    store_element<W>(op, at, y);
  }
  if (c == 0 && threadIdx.x == 0) store_row_outputs<W>(op, row, ctx);
}

template <class W, int T, int G, class X = LocalExchange>
__global__ void __launch_bounds__(T, (register_min_blocks<W, T, G, X>())) register_row_kernel(const __grid_constant__ RowOperands op) {
  using XS = ExchangeSmem<W, X>;
  __shared__ float warp_buf[num_stages<W>() * (T / 32) * max_q<W>()];
  __shared__ float slots[XS::slot_floats];
  __shared__ std::uint64_t xbars[XS::bars];
  register_row<W, T, G, X>(op, warp_buf, slots, xbars);
}

}  // namespace credit::kernels
