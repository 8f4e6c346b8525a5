#pragma once
// How a row is split across the P CTAs of a cluster, and the shared-memory footprint of a
// CTA that retains its slice. Read by the CPU execution, the kernels, the launcher and the
// model, so that all four agree on slices and on legality (paper Eq. 3).
#include <string>
#include <vector>

#include "core/build_options.hpp"
#include "core/hd.hpp"
#include "core/workload.hpp"

namespace credit {

// Tuning policy of the staged and clustered kernels (a constexpr aggregate, as CUB does). CREDIT_SPLIT_THREADS, the
// CTA size, is the CMake cache variable of that name (256 by default), defined by core/build_options.hpp.
#ifndef CREDIT_PARTIAL_LOADS  // 16-byte loads in flight per thread for the partial schedule's streamed part
#define CREDIT_PARTIAL_LOADS 4
#endif

// CTAs per SM a kernel's register budget is cut for: 48 registers a thread, so that a CTA's
// barriers overlap its neighbours' streaming; 64, then 80, as the statistics, inputs and
// exchange state a thread carries grow and would spill (ptxas -warn-spills).
constexpr int min_blocks_per_sm(int threads, int pressure) {
  return 65536 / (threads * (pressure <= 4 ? 48 : pressure <= 8 ? 64 : 80));
}

struct SplitPolicy {
  static constexpr int threads = CREDIT_SPLIT_THREADS;

  // 16-byte loads in flight per thread and input: deep for global memory, shallow for shared.
  static constexpr int global_unroll(int inputs) { return inputs <= 1 ? 4 : 2; }
  // The partial schedule's streamed part (CREDIT_PARTIAL_LOADS): 8 instead of 4 moved 4096 x 262144
  // by under 1.5%, 16 as much or slower (H200).
  static constexpr int stream_unroll(int inputs) {
    return inputs <= 1 ? CREDIT_PARTIAL_LOADS : CREDIT_PARTIAL_LOADS / 2 > 1 ? CREDIT_PARTIAL_LOADS / 2 : 1;
  }
  static constexpr int shared_unroll = 2;  // 1 or 4: no change at seed 001's shape
  // The apply pass over the kept slice with column parameters: 4 ran rmsnorm at 0.87-1.15x the speed, layernorm 0.70-1.12x.
  static constexpr int col_unroll = shared_unroll;
  // The apply pass over the kept slice of a workload with column parameters (layernorm's gamma and
  // beta) loads those from global memory, shared_unroll groups in flight per thread: a latency-bound
  // pass at one CTA per SM, by the time model's residuals (H200, 2026-12-01).
  static constexpr int kept_apply_unroll(int col_params) { return col_params > 0 ? col_unroll : shared_unroll; }
  // The first stage's slice arrives through the bulk copy engine in up to max_chunks pieces
  // (each with its own mbarrier), so accumulation starts before the whole slice has landed.
  // Pieces of at least 16 KB: at 16 x 131072 (rms_softmax, P = 16) 2 KB pieces took the first
  // stage 4.4 us and 16 KB pieces 2.6 us (credit bench --phases).
  static constexpr int max_chunks = 16;
  static constexpr int min_chunk_groups = 1024;  // 16-byte groups: 16 KB per input
  static constexpr int warps = threads / 32;
  static constexpr int max_cluster = 16;
  static constexpr int vec = 4;  // elements per 16-byte access
};

// The register-resident one-CTA schedules for short rows (the schedule the Triton peer wins with):
// every input of the row is read once into registers, groups float4 per thread and input, by
// `threads` threads; the stages and h work on the registers, nothing is staged in shared memory.
// Two families, each a schedule the time model predicts and a sweep times: "registers" spreads a
// row over many threads (at most 4 groups each), "registers_deep" holds 8 groups per thread in
// fewer threads: fewer warps to reduce over and, at few rows, more CTAs per SM, so that M = 256
// fits one wave at N = 8192. It holds rows of 4097 to 16384 elements only: a
// warp per row (32 x 8) and 64 x 8 lost to the wide family by 10-50% at N = 1024 and 2048, 128 x 8
// tied it at 4096, and there the time model mispicked it. At 16384, 512 x 8
// (the peer's 16 warps) beat the wide 1024 x 4 by 1.04-1.05x geomean at M = 256-4096 (0.96-1.15x).
// The launcher and the time model take the family's smallest variant that holds the row.
// A third family, Cluster, holds a slice of a row split over the P CTAs of a cluster (the schedule
// "cluster_registers"): the same kernel with the statistics exchanged through DSMEM after each stage,
// for slices of up to 8192 elements in 256 threads (the split kernel's CTA), so that rows too wide for
// one CTA's registers still skip the bulk copies, the mbarrier set-up and the shared-memory round trip
// of the clustered kernel (seed 001's 16 x 131072: slices of 8192 at P = 16).
enum class RegisterFamily { Wide = 0, Deep = 1, Cluster = 2 };
struct RegisterVariant {
  int threads, groups;
  RegisterFamily family;
};
#ifndef CREDIT_REGISTER_VARIANTS  // a build option for A/B runs of the tables
#define CREDIT_REGISTER_VARIANTS                                                                   \
  {128, 2, RegisterFamily::Wide}, {256, 2, RegisterFamily::Wide}, {256, 4, RegisterFamily::Wide},  \
      {512, 4, RegisterFamily::Wide}, {1024, 4, RegisterFamily::Wide}, {256, 8, RegisterFamily::Deep},     \
      {512, 8, RegisterFamily::Deep}, {256, 2, RegisterFamily::Cluster}, {256, 4, RegisterFamily::Cluster},       \
      {256, 8, RegisterFamily::Cluster}
#endif
inline constexpr RegisterVariant kRegisterVariants[] = {CREDIT_REGISTER_VARIANTS};
inline constexpr int kRegisterVariantCount = int(sizeof(kRegisterVariants) / sizeof(kRegisterVariants[0]));

// A variant holds threads x groups 16-byte groups of each input: 4 floats each, or 8 bf16 / fp16 (vec, the
// elements per group), so the same variant holds twice the row in a 16-bit type, in the same registers.
// The narrowest row a family takes: the deep family starts where the wide family's 256 x 4 ends.
constexpr long long register_min_width(RegisterFamily family, int vec = SplitPolicy::vec) {
  return family == RegisterFamily::Deep ? 1024LL * vec + 1 : 1;
}

// Index into kRegisterVariants of the family's variant for a row of n elements (the first that
// holds it, the table listing each family by width); -1 when none does.
constexpr int register_variant_for(long long n, RegisterFamily family, int vec = SplitPolicy::vec) {
  if (n < register_min_width(family, vec)) return -1;
  for (int i = 0; i < kRegisterVariantCount; ++i)
    if (kRegisterVariants[i].family == family && n <= 1LL * vec * kRegisterVariants[i].threads * kRegisterVariants[i].groups)
      return i;
  return -1;
}
// The widest row a family holds.
constexpr long long register_max_width(RegisterFamily family, int vec = SplitPolicy::vec) {
  long long w = 0;
  for (const auto& v : kRegisterVariants)
    if (v.family == family) w = w > 1LL * vec * v.threads * v.groups ? w : 1LL * vec * v.threads * v.groups;
  return w;
}
// Why the family does not take a row of n elements; empty when it does (launcher and time model).
inline std::string register_width_refusal(long long n, RegisterFamily family, int vec = SplitPolicy::vec) {
  if (register_variant_for(n, family, vec) >= 0) return {};
  const long long lo = register_min_width(family, vec), hi = register_max_width(family, vec);
  if (family == RegisterFamily::Cluster)
    return "the register-resident cluster kernel holds slices of at most " + std::to_string(hi) +
           " elements per CTA";
  return "the register-resident kernel holds rows of " +
         (lo > 1 ? std::to_string(lo) + " to " + std::to_string(hi) : "at most " + std::to_string(hi)) + " elements";
}
// The name a register variant's kernel resources are recorded under, e.g. "registers/256x4".
inline std::string register_kernel_name(int variant) {
  return std::string(kRegisterVariants[variant].family == RegisterFamily::Cluster ? "cluster_registers/" : "registers/") + std::to_string(kRegisterVariants[variant].threads) + "x" +
         std::to_string(kRegisterVariants[variant].groups);
}

// CTAs per row of the schedules that split a row through global memory (megakernel, local
// fusion, unfused): any P from 1 to this.
inline constexpr int kMaxGlobalSplit = 64;

// CTAs per row of split_global: a power of two from 2 to this (a row of 2^20 elements and two kept
// planes, 8 MB, needs 128 CTAs of 64 KB to hold it at three CTAs per SM).
inline constexpr int kMaxSpreadSplit = 128;
constexpr bool is_spread_split(int p) { return p >= 2 && p <= kMaxSpreadSplit && (p & (p - 1)) == 0; }
// Every P split_global takes, smallest first: what the time model predicts it at (and a sweep would time).
inline const std::vector<int>& spread_splits() {
  static const std::vector<int> ps = [] {
    std::vector<int> v;
    for (int p = 2; p <= kMaxSpreadSplit; p *= 2) v.push_back(p);
    return v;
  }();
  return ps;
}

// How a span's bulk copies (the split-row kernels' first stage) are cut: chunks of `per` 16-byte groups, each
// completing on its own mbarrier, at most SplitPolicy::max_chunks of them.
struct ChunkPlan {
  int per, chunks;
};
CREDIT_HD ChunkPlan chunk_plan(int groups) {
  const int per_raw = (groups + SplitPolicy::max_chunks - 1) / SplitPolicy::max_chunks;
  const int per = per_raw > SplitPolicy::min_chunk_groups ? per_raw : SplitPolicy::min_chunk_groups;
  return {per, (groups + per - 1) / per};
}

// Cluster sizes the clustered schedule takes: 2, 4, 8 (portable) and 16 (non-portable on Hopper).
constexpr bool is_cluster_size(int p) { return p == 2 || p == 4 || p == 8 || p == 16; }

struct Slice {
  int lo, hi;  // [lo, hi) of the row
};

// Elements of the slice a CTA of P per row holds at width n (n <= 2^30): ceil(n / p) rounded up to whole 16-byte
// vectors of vec elements (4 floats, 8 bf16), so that slice starts keep the row's alignment.
CREDIT_HD constexpr int slice_elems(int n, int p, int vec) {
  const int per = (n + p - 1) / p;
  return (per + vec - 1) / vec * vec;
}

// When n < p * vec the last CTAs get empty slices and contribute identities.
CREDIT_HD Slice slice_of(int n, int p, int c, int vec = SplitPolicy::vec) {
  const int len = slice_elems(n, p, vec);
  const long long lo = (long long)c * len;
  const int lo_c = lo < n ? int(lo) : n;
  const int hi = lo_c + len < n ? lo_c + len : n;
  return {lo_c, hi};
}

// Floats of one retained-input plane: the slice rounded up to vectors, plus one vector of
// slack because the plane starts at the vector boundary below the slice's first element.
// A CTA of the partial schedule holds at most `keep` floats (a multiple of vec) per plane.
// (Spelt out, not through slice_elems: the fp32 kernels' PTX lost their warp partials' vector loads that way.)
CREDIT_HD int plane_floats(int n, int p, int keep = 0x7ffffff0) {
  const int per = (n + p - 1) / p;
  const int len = (per + SplitPolicy::vec - 1) / SplitPolicy::vec * SplitPolicy::vec;
  return (len < keep ? len : keep) + SplitPolicy::vec;
}

// Elements of one retained plane in a 16-byte group element type (vec per group): the slice rounded up to groups,
// plus one group of slack (the plane starts at the group boundary below the slice's first element).
// A CTA of a partial kernel keeps at most `keep` elements (a multiple of vec) per plane.
CREDIT_HD int plane_elems(int n, int p, int vec, int keep = 0x7ffffff0) {
  const int len = slice_elems(n, p, vec);
  return (len < keep ? len : keep) + vec;
}

// Bytes kept per element: one element of the stored type per retained input.
template <class W>
constexpr int retained_bytes_per_elem() { return int(sizeof(element_t<W>)) * popcount(retained_mask<W>()); }

// Floats before the mbarriers: per-stage warp partials and per-statistic slots for the largest
// cluster, rounded up to 8 bytes.
template <class W>
constexpr int reduction_floats() {
  const int f = num_stages<W>() * SplitPolicy::warps * max_q<W>() + num_stats<W>() * SplitPolicy::max_cluster;
  return (f + 1) / 2 * 2;
}

// S_scratch: the reduction floats, the mbarriers (bulk copy chunks, one per stage for the
// exchange), and the slack of plane_floats / plane_elems: under two 16-byte groups per retained plane (7 floats,
// or 15 bf16), so 32 bytes a plane in every element type.
template <class W>
constexpr long scratch_bytes() {
  return 4L * reduction_floats<W>() + 8L * (SplitPolicy::max_chunks + num_stages<W>()) +
         32L * popcount(retained_mask<W>());
}

// Dynamic shared memory a CTA of the staged (p = 1) or clustered kernel requests:
// ceil(n/p) * b_keep + S_scratch, so Eq. 3 and the launch use the same number.
template <class W>
constexpr long split_smem_bytes(long n, int p) {
  return (n + p - 1) / p * retained_bytes_per_elem<W>() + scratch_bytes<W>();
}

// Partial retention (the wide-row schedules "partial" and "partial_one"): each CTA keeps the first
// `keep` floats of its slice per retained plane in shared memory and streams the rest of the slice
// from global memory (the L2 while it holds it) at every phase. keep is the most that lets
// `ctas` CTAs share an SM: kPartialCtasPerSm for "partial", so that one CTA's exchange and replay
// overlap another's HBM traffic; one for "partial_one", which streams less and overlaps nothing
// (ScheduleTraits::partial_ctas). A slice that fits whole at that occupancy is the staged or
// clustered schedule. Read by the launcher, can_implement and the time model, so all three agree.
inline constexpr int kPartialCtasPerSm = 2;  // 3 or 4: slower for the two-plane workloads
inline constexpr int kPartialOneCtasPerSm = 1;  // "partial_one"
// Partial runs as the largest cluster only: it keeps the largest share of a row. Smaller clusters
// stream more of each slice and never won at any wide-row shape measured (P = 2, 4, 8 against 16,
// M = 1024 and 4096, N = 128K ... 1M; H200).
inline constexpr int kPartialClusterSize = SplitPolicy::max_cluster;
inline constexpr long kReservedSmemPerCta = 1024;  // the runtime's own (reservedSharedMemPerBlock on sm_80+)
// The elements of its slice a partial kernel's CTA keeps per retained plane: whole 16-byte groups of vec elements (4
// floats, 8 bf16 / fp16), b_keep the bytes kept per element in the stored type.
constexpr long long partial_keep_elems(int b_keep, long s_scratch, long smem_per_sm, int ctas = kPartialCtasPerSm,
                                       int vec = SplitPolicy::vec) {
  if (b_keep <= 0 || ctas <= 0) return 0;
  const long budget = smem_per_sm / ctas - kReservedSmemPerCta - s_scratch;
  return budget <= 0 ? 0 : budget / b_keep / vec * vec;
}
// Dynamic shared memory of a partial kernel's CTA keeping `keep` elements per plane.
constexpr long partial_smem_bytes(long long keep, int b_keep, long s_scratch) {
  return long(keep) * b_keep + s_scratch;
}
// "1 CTA per SM", "2 CTAs per SM": the words of a refusal that names a partial schedule's sizing.
inline std::string ctas_per_sm_words(int ctas) { return std::to_string(ctas) + (ctas == 1 ? " CTA per SM" : " CTAs per SM"); }
// Elements of a row the partial schedule streams (and reads again at every phase): what its P
// CTAs do not keep.
constexpr long long partial_streamed_elems(long long n, int p, long long keep) {
  return n - p * keep > 0 ? n - p * keep : 0;
}
// Elements of the slice a CTA of P per row holds at width n, rounded up to whole groups of vec elements
// (slice_elems in 64-bit arithmetic: the host asks at any width, before a shape is refused); in floats.
constexpr long long slice_width(long long n, int p, int vec) { return ((n + p - 1) / p + vec - 1) / vec * vec; }
constexpr long long slice_floats(long long n, int p) { return slice_width(n, p, SplitPolicy::vec); }
// Elements a CTA of a register family holds at width n with P CTAs per row: the row (P = 1), or its
// slice, rounded up to whole groups of vec elements as the kernel slices it; the family's variant is chosen by it.
constexpr long long register_width(long long n, int p, int vec = SplitPolicy::vec) {
  return p <= 1 ? n : slice_width(n, p, vec);
}

}  // namespace credit
