#pragma once
// Seed 001's megakernel exchanges: the P CTAs of a row (consecutive blockIdx, no cluster) share
// partials through global memory, partials[row - row0][stat][rank], and wait at a barrier.
//
// RowBarrierExchange: a row-scoped barrier built from device-scope release/acquire atomics.
// Thread 0 of each CTA writes its partials, counts its arrival on the row's per-stage counter
// with release semantics and spins with acquire loads until all P have arrived; the CTA barrier
// then hands the view to the other threads, which read the partials from L2 in rank order (every
// CTA combines them identically). After the last stage each CTA also counts its departure, and
// the last to depart zeroes the row's counters, so the next launch needs no memset.
// GridBarrierExchange: the same partials, and a grid-wide barrier (cooperative groups) that
// waits for every CTA of the launch: seed 001's choice for one row.
// Both are deadlock-free only when every CTA of the launch is resident at once: the launcher
// caps the launch at the active blocks per SM times the SM count and splits the rows into
// groups beyond that (cooperative launch).
// TicketRowExchange (split_global): the row-scoped barrier, with seats taken in the order
// CTAs start (TicketSeat) instead of by blockIdx, so one ordinary launch covers every row. It needs
// only P of its CTAs resident at once, but of the device as a whole: a kernel holding SMs meanwhile
// (another split_global launch on another stream, a persistent kernel) can starve a row, whose wait
// then traps after 20 s rather than hang (kRowBarrierTimeoutNs).
// TicketRowExchange (split_global) exchanges tagged partials (TaggedGlobalExchange): no barrier counter. Each
// partial travels with the launch's generation in one 8-byte word (value, tag), stored relaxed and polled
// by every warp until all P words of the stage carry this launch's tag: one L2 round trip after the row's
// last CTA stores, where the counter barrier takes about four (store, release fetch_add, acquire polls,
// CTA barrier, then the partials read again). On an H100 (2026-12-05) the whole GPU suite passed with it and
// split_global took 0.899x the counter barrier's time over 159 points.
#include <cooperative_groups.h>

#include <cuda/atomic>
#include <type_traits>

#include "core/operands.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "kernels/global_timer.cuh"

namespace credit::kernels {

// Bytes of one partial in split_global's exchange scratch: a float and its launch's tag.
inline constexpr int kSpreadPartialBytes = 8;

// Combines the P partials of each of stage statistics [off, off + q) of one row, stats[j][rank]
// in global memory, into r. Every warp reads them in parallel (lane c takes ranks c, c + 32, ...)
// and reduces by an xor butterfly, so every thread of every CTA of the row gets the same bits;
// a serial loop would wait one L2 round trip per rank.
template <class W, int off, int q>
__device__ __forceinline__ void combine_row_partials(const float* stats, int p, float (&r)[q]) {
  const int lane = int(threadIdx.x & 31u);
#pragma unroll
  for (int j = 0; j < q; ++j) {
    float v = combine_identity(op_of<W>(off + j));
    for (int c = lane; c < p; c += 32) v = combine_apply(op_of<W>(off + j), v, __ldcg(&stats[j * p + c]));
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = combine_apply(op_of<W>(off + j), v, __shfl_xor_sync(0xffffffffu, v, o));
    r[j] = v;
  }
}

// A CTA's seat: the row of the launch it serves and its rank among the row's P CTAs.
// BlockSeat: by blockIdx, the P CTAs of a row consecutive (the megakernel's cooperative launch
// makes them all resident).
struct BlockSeat {
  __device__ static long long row(const RowOperands& op, std::uint64_t*) { return blockIdx.x / unsigned(op.split); }
  __device__ static int rank(const RowOperands& op, std::uint64_t*) { return int(blockIdx.x % unsigned(op.split)); }
};

// TicketSeat: the t-th CTA to start (a device-scope counter, op.tickets[0]) takes row t / P, rank
// t % P. A CTA then waits only for CTAs of its own row, and of all rows only the newest has seats
// not yet taken: every other row's CTAs have started and finish without anyone else. The newest
// row's missing CTAs start as the finished ones leave their SMs, so the launch always progresses
// when the device holds at least P of these CTAs at once (can_implement's check), with no
// cooperative launch and no reliance on the order the hardware dispatches blocks in (which the
// programming model does not promise). The CTA that takes the last ticket resets the seat count for the
// next launch: every other CTA has taken its own by then, and no one reads it again in this one.
// The ticket is kept in the first of the exchange's mbarrier words, which a global-memory exchange
// leaves unused: no static shared memory, which would lower the dynamic shared memory a CTA may ask
// for below the device's opt-in maximum (Eq. 3's S_max).
// The counter is 64 bits, tickets[0] the seat and tickets[1] the launch's generation:
// one fetch_add gives a CTA both, and the CTA that takes the last ticket starts the next generation, so
// every CTA of one launch reads the same generation and the next launch another (xbars' second word).
struct TicketSeat {
  // Every thread of the CTA calls it once, first: thread 0 takes the ticket, a CTA barrier hands it on.
  __device__ static long long row(const RowOperands& op, std::uint64_t* xbars) {
    auto* seat = reinterpret_cast<unsigned*>(xbars);
    if (threadIdx.x == 0) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> tickets(
          *reinterpret_cast<unsigned long long*>(op.tickets));
      const unsigned long long t = tickets.fetch_add(1ull, cuda::memory_order_relaxed);
      seat[0] = unsigned(t);
      seat[1] = unsigned(t >> 32);
      // A seat count not at zero when the launch began (a workspace not zero-filled, shared by two launches at
      // once, or left by a launch that died) would seat CTAs past the last row: stop rather than write there.
      if (seat[0] >= gridDim.x) __trap();
      if (seat[0] == gridDim.x - 1) tickets.store(((t >> 32) + 1ull) << 32, cuda::memory_order_relaxed);
    }
    __syncthreads();
    return *seat / unsigned(op.split);
  }
  __device__ static int rank(const RowOperands& op, std::uint64_t* xbars) {
    return int(*reinterpret_cast<const unsigned*>(xbars) % unsigned(op.split));
  }
  // The tag this launch's partials carry: never 0, the zero-filled workspace's (until 2^32 launches wrap it).
  __device__ static unsigned tag(std::uint64_t* xbars) { return reinterpret_cast<const unsigned*>(xbars)[1] + 1u; }
};

template <class Wait, class Seat = BlockSeat>
struct GlobalExchange {
  static constexpr int pressure = 4;  // scratch pointers, the barrier and the Fig. 6 switches
  static constexpr bool through_global = true;
  __device__ static int size(const RowOperands& op) { return op.split; }
  __device__ static long long row(const RowOperands& op, std::uint64_t* xbars) { return Seat::row(op, xbars); }
  __device__ static int rank(const RowOperands& op, std::uint64_t* xbars) { return Seat::rank(op, xbars); }
  template <class W>
  __device__ static void begin(const RowOperands&, std::uint64_t*) {}

  template <class W, int l>
  __device__ static void all_reduce(const RowOperands& op, long long row, float (&part)[W::stages[l].q], float*,
                                    std::uint64_t* xbars) {
    constexpr int q = W::stages[l].q;
    constexpr int off = stat_offset<W>(l);
    const int p = op.split, me = rank(op, xbars);
    const long long local = row - op.row0;
    float* stats = op.partials + (local * num_stats<W>() + off) * p;  // [stat][rank]
    if (threadIdx.x == 0)
#pragma unroll
      for (int j = 0; j < q; ++j) stats[j * p + me] = part[j];
    Wait::template wait<W, l>(op, local);
    combine_row_partials<W, off, q>(stats, p, part);
  }
};

// How long a row barrier waits for its row's other CTAs before it gives up. Only a broken
// residency assumption gets there (another process's kernels holding the SMs split_global was
// promised, a bug): the wait then traps, which the host sees as a failed launch and reports,
// instead of spinning forever. Far above any real wait: a row finishes in microseconds to
// milliseconds, and a kernel under compute-sanitizer runs some 1000x slower.
inline constexpr unsigned long long kRowBarrierTimeoutNs = 20ull * 1000 * 1000 * 1000;

// The pause between two polls of a bounded wait, which traps once kRowBarrierTimeoutNs has passed. The
// clock is read once per 1024 polls, in units of 2^20 ns (about a millisecond), into 32-bit words: the
// barrier sits in kernels with no register to spare (the megakernel's spilled with a 64-bit start).
struct BoundedSpin {
  unsigned polls = 0, start = 0;
  __device__ __forceinline__ void pause() {
    constexpr unsigned limit = unsigned(kRowBarrierTimeoutNs >> 20);
    __nanosleep(32);
    if ((++polls & 1023u) != 0) return;
    const unsigned now = unsigned(global_ns() >> 20);
    if (polls == 1024u) start = now;
    else if (now - start > limit) __trap();
  }
};

// Spins until `arrived` reaches p (acquire), bounded.
__device__ __forceinline__ void wait_for_arrivals(cuda::atomic_ref<unsigned, cuda::thread_scope_device>& arrived,
                                                  unsigned p) {
  BoundedSpin spin;
  while (arrived.load(cuda::memory_order_acquire) < p) spin.pause();
}

// bounded: the wait traps after kRowBarrierTimeoutNs (split_global, whose CTAs' residency rests on
// can_implement's count); the megakernel's cooperative launch guarantees it, and its kernels keep the
// registers the clock would take (two of them spilled 8-12 bytes more with it).
template <bool bounded = false>
struct RowBarrier {
  template <class W, int l>
  __device__ static void wait(const RowOperands& op, long long local) {
    constexpr int L = num_stages<W>();
    unsigned* counters = op.arrivals + local * (L + 1);
    const unsigned p = unsigned(op.split);
    if (threadIdx.x == 0) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(counters[l]);
      arrived.fetch_add(1u, cuda::memory_order_release);
      if constexpr (bounded) wait_for_arrivals(arrived, p);
      else
        while (arrived.load(cuda::memory_order_acquire) < p) __nanosleep(32);
      if constexpr (l == L - 1) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> departed(counters[L]);
        if (departed.fetch_add(1u, cuda::memory_order_acq_rel) == p - 1)  // everyone is past every wait
          for (int k = 0; k <= L; ++k)
            cuda::atomic_ref<unsigned, cuda::thread_scope_device>(counters[k]).store(0u, cuda::memory_order_relaxed);
      }
    }
    __syncthreads();
  }
};

struct GridBarrier {
  template <class W, int l>
  __device__ static void wait(const RowOperands&, long long) {
    cooperative_groups::this_grid().sync();  // orders the partials' stores before the loads
  }
};

// Stage l's partials of one row through tagged words, words[j][rank] for statistics [off, off + q): warp k
// polls ranks 32k ... 32k + 31 (one word per lane and statistic, all in flight at once) until each carries
// `tag`, bounded as wait_for_arrivals is; reduces them by an xor butterfly; lane 0 leaves the warp's result in
// slots[stat][k] (the DSMEM exchange's slots, unused here); after a CTA barrier every thread combines the
// warps' results in order. So each word is polled by one warp of each CTA, not eight, and every thread of
// every CTA of the row gets the same bits.
template <class W, int off, int q>
__device__ __forceinline__ void combine_tagged_partials(unsigned long long* words, int p, unsigned tag, float* slots,
                                                        float (&r)[q]) {
  static_assert(SplitPolicy::warps * 32 >= kMaxSpreadSplit && kMaxSpreadSplit / 32 <= SplitPolicy::max_cluster,
                "a warp per 32 ranks, its result in a slot");
  constexpr int MC = SplitPolicy::max_cluster;
  const int warp = int(threadIdx.x >> 5), c = int(threadIdx.x);
  if (warp * 32 < p) {  // the same for the whole warp
    unsigned long long w[q];
    BoundedSpin spin;
    for (;;) {
#pragma unroll
      for (int j = 0; j < q; ++j)
        w[j] = c < p ? cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[j * p + c])
                           .load(cuda::memory_order_relaxed)
                     : static_cast<unsigned long long>(tag) << 32;
      bool ready = true;
#pragma unroll
      for (int j = 0; j < q; ++j) ready &= unsigned(w[j] >> 32) == tag;
      if (__all_sync(0xffffffffu, ready)) break;
      spin.pause();
    }
#pragma unroll
    for (int j = 0; j < q; ++j) {
      float v = c < p ? __uint_as_float(unsigned(w[j])) : combine_identity(op_of<W>(off + j));
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) v = combine_apply(op_of<W>(off + j), v, __shfl_xor_sync(0xffffffffu, v, o));
      if ((threadIdx.x & 31u) == 0) slots[(off + j) * MC + warp] = v;
    }
  }
  __syncthreads();
  const int groups = (p + 31) / 32;
#pragma unroll
  for (int j = 0; j < q; ++j) {
    float v = combine_identity(op_of<W>(off + j));
    for (int k = 0; k < groups; ++k) v = combine_apply(op_of<W>(off + j), v, slots[(off + j) * MC + k]);
    r[j] = v;
  }
}

// The global exchange's seats, size and scratch, with its all_reduce replaced: no barrier (Wait) at all.
struct NoBarrier {};
template <class Seat>
struct TaggedGlobalExchange : GlobalExchange<NoBarrier, Seat> {
  using GlobalExchange<NoBarrier, Seat>::rank;
  template <class W, int l>
  __device__ static void all_reduce(const RowOperands& op, long long row, float (&part)[W::stages[l].q], float* slots,
                                    std::uint64_t* xbars) {
    constexpr int q = W::stages[l].q;
    constexpr int off = stat_offset<W>(l);
    const int p = op.split, me = rank(op, xbars);
    const unsigned tag = Seat::tag(xbars);
    auto* words = reinterpret_cast<unsigned long long*>(op.partials) + ((row - op.row0) * num_stats<W>() + off) * p;
    if (threadIdx.x == 0)  // each word alone carries its value: no fence, no counter
#pragma unroll
      for (int j = 0; j < q; ++j)
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[j * p + me])
            .store(static_cast<unsigned long long>(tag) << 32 | __float_as_uint(part[j]), cuda::memory_order_relaxed);
    combine_tagged_partials<W, off, q>(words, p, tag, slots, part);
  }
};

using RowBarrierExchange = GlobalExchange<RowBarrier<>>;
using GridBarrierExchange = GlobalExchange<GridBarrier>;
using TicketRowExchange = TaggedGlobalExchange<TicketSeat>;

}  // namespace credit::kernels
