#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/workloads/all.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/launch/kernel_table.hpp"
#include "gpu/launch/occupancy.hpp"
#include "gpu/launch/row_launch.hpp"
#include "gpu/kernel_sets/seed001_kernel_set.cuh"
#include "gpu/kernel_sets/split_row_kernel_set.cuh"
#include "kernels/global_exchange.cuh"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/local_fusion_kernels.cuh"
#include "kernels/split_row_kernel.cuh"
#include "kernels/unfused_rms_softmax.cuh"

namespace credit::gpu {

namespace {

const Kernels& kernels_of(const WorkloadInfo& w) {
  if (w.element() != ElementType::F32) {
    if (const Kernels* k = narrow_kernels(w.declared, w.element())) return *k;
    throw std::invalid_argument("no kernels for workload '" + w.name + "'");
  }
  static const std::map<std::string, Kernels> table = [] {
    std::map<std::string, Kernels> t;
    for_each_workload([&](auto decl) {
      using W = decltype(decl);
      Kernels k = split_row_kernel_set<W>();
      add_seed001_kernels<W>(k);
      wide_kernels_f32(W::name, k);
      register_kernels_of(W::name, k.registers);
      t[W::name] = k;
    });
    return t;
  }();
  const auto it = table.find(w.name);
  if (it != table.end()) return it->second;
  if (const Kernels* k = negative_control_kernels(w.name)) return *k;
  throw std::invalid_argument("no kernels for workload '" + w.name + "'");
}

// The register variant a register-resident schedule runs at width n with p CTAs per row, its groups of vec
// elements (4 floats, 8 bf16 / fp16); -1 for none.
int register_variant_of(Schedule s, int p, long long n, int vec) {
  const int fam = traits_of(s).register_family;
  return fam < 0 ? -1 : register_variant_for(register_width(n, p, vec), RegisterFamily(fam), vec);
}

// The kernel whose occupancy limits the schedule at width n (for local fusion: its first kernel;
// none for the unfused chain).
Kernel kernel_for(const Kernels& k, Schedule s, int p, long long n) {
  if (traits_of(s).register_family >= 0) {
    const int v = register_variant_of(s, p, n, k.vec);
    if (v < 0) return nullptr;
    return k.registers[v];
  }
  switch (s) {
    case Schedule::Staged: return k.staged;
    case Schedule::Cluster: return k.cluster;
    case Schedule::Partial: return k.partial;
    case Schedule::PartialOne: return k.partial_one;
    case Schedule::Megakernel: return k.mega_row;
    case Schedule::SplitGlobal: return k.split_global;
    case Schedule::LocalFusion: return k.fused[0];
    case Schedule::Unfused: return nullptr;  // nine kernels of other signatures
    default: break;  // global_reread (the register families are taken above)
  }
  return k.reread;
}

int threads_for(Schedule s, int p, long long n, int vec) {
  if (traits_of(s).register_family >= 0) {
    const int v = register_variant_of(s, p, n, vec);
    return v < 0 ? 0 : kRegisterVariants[v].threads;
  }
  switch (s) {
    case Schedule::GlobalReread: return kernels::RereadPolicy::threads;
    case Schedule::LocalFusion: return kernels::FusionPolicy::threads;
    case Schedule::Unfused: return kernels::unfused::kThreads;
    default: return SplitPolicy::threads;
  }
}

// Raises the dynamic shared-memory limit to the device's opt-in maximum, once per kernel and
// device; the shared-memory carveout stays the driver's choice (the largest carveout: 0.989-1.018x the time
// for 44 kernels). The memo is a per-process fact, not scratch: shared by every thread under a lock.
void prepare(Kernel k, Schedule s, const DeviceInfo& dev) {
  static std::mutex lock;
  static std::map<std::pair<int, Kernel>, bool> done;
  int device = 0;
  CREDIT_CUDA(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> hold(lock);
  bool& is_done = done[{device, k}];
  if (is_done) return;
  if (traits_of(s).dynamic_smem)
    CREDIT_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(dev.smem_per_block_optin)));
  if (traits_of(s).cluster_launch) CREDIT_CUDA(allow_cluster_launch(k));  // P = 16, and the build's policy
  is_done = true;
}

cudaLaunchConfig_t config_for(Schedule s, int p, long long rows, long long n, int vec, long smem, cudaStream_t stream,
                              cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg =
      row_launch_config(rows, p, threads_for(s, p, n, vec), smem, traits_of(s).cluster_launch, stream, attr);
  if (s == Schedule::Megakernel) {  // the runtime refuses a grid that is not co-resident
    attr->id = cudaLaunchAttributeCooperative;
    attr->val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  return cfg;
}

// Carves the caller's workspace into 256-byte aligned pieces; with a null base it only counts
// the bytes (workspace_bytes), so sizing and launching share one layout.
struct Carve {
  char* base = nullptr;
  size_t used = 0;
  template <class T>
  T* take(size_t bytes) {
    T* at = base ? reinterpret_cast<T*>(base + used) : nullptr;
    used += (bytes + 255) / 256 * 256;
    return at;
  }
};

// The megakernel's rows per launch: as many as the device holds at once (so no
// CTA waits at a barrier for a CTA that cannot be resident), at most the problem's.
long long resident_row_group(int p, long long rows, int resident_ctas) {
  return std::min<long long>(std::max(1, resident_ctas / p), rows);
}

// Arrival counters first (zero before the first launch, left zero by each), then partials and
// the spill planes.
struct MegaScratch {
  unsigned* arrivals;
  float* partials;
  float* spill;
};
MegaScratch carve_megakernel(Carve& c, const Kernels& ks, int p, long long rows, long long n, long long group,
                             unsigned switches) {
  MegaScratch m{};
  m.arrivals = c.take<unsigned>(size_t(group) * size_t(ks.stages + 1) * 4);
  m.partials = c.take<float>(size_t(group) * size_t(ks.stats) * size_t(p) * 4);
  if (switches & kSpillRetained)
    m.spill = c.take<float>(size_t(ks.retained) * size_t(spill_plane_floats(rows, int(n))) * 4);
  return m;
}

// split_global: the ticket counter, then a barrier counter per stage and one of departures per row, then
// partials[row][stat][rank] (every counter zero before the first launch, left zero by each).
struct SpreadScratch {
  unsigned* tickets;
  unsigned* arrivals;
  float* partials;
};
SpreadScratch carve_split_global(Carve& c, const Kernels& ks, int p, long long rows) {
  SpreadScratch m{};
  m.tickets = c.take<unsigned>(4);
  m.arrivals = c.take<unsigned>(size_t(rows) * size_t(ks.stages + 1) * 4);
  m.partials = c.take<float>(size_t(rows) * size_t(ks.stats) * size_t(p) * kernels::kSpreadPartialBytes);
  return m;
}

float* carve_local_fusion(Carve& c, const Kernels& ks, int p, long long rows) {
  return c.take<float>(size_t(rows) * size_t(ks.stats) * size_t(p) * 4);
}

// Seed 001's unfused chain: x^2 and E [rows x n], tile results [rows x P], s, m, z [rows].
struct UnfusedScratch {
  float *sq, *e, *tiles, *s, *m, *z;
};
UnfusedScratch carve_unfused(Carve& c, int p, long long rows, long long n) {
  const size_t count = size_t(rows) * size_t(n);
  UnfusedScratch u{};
  u.sq = c.take<float>(count * 4);
  u.e = c.take<float>(count * 4);
  u.tiles = c.take<float>(size_t(rows) * size_t(p) * 4);
  u.s = c.take<float>(size_t(rows) * 4);
  u.m = c.take<float>(size_t(rows) * 4);
  u.z = c.take<float>(size_t(rows) * 4);
  return u;
}

}  // namespace

long long partial_keep(const WorkloadInfo& w, Schedule s, const DeviceInfo& dev) {
  return partial_keep_elems(w.figures.b_keep, w.figures.s_scratch, dev.smem_per_sm, traits_of(s).partial_ctas,
                            group_elems_of(w.element()));
}

long long slice_elements(const WorkloadInfo& w, long long n, int p) { return slice_width(n, p, group_elems_of(w.element())); }

long smem_bytes(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev) {
  if (!traits_of(s).dynamic_smem) return 0;  // static shared memory only
  if (traits_of(s).partial_ctas > 0)
    return partial_smem_bytes(std::min(slice_elements(w, n, p), partial_keep(w, s, dev)), w.figures.b_keep,
                              w.figures.s_scratch);
  return kernels_of(w).split_smem(long(n), s == Schedule::Staged ? 1 : p);
}

Support can_implement(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                      const DeviceInfo& dev) {
  if (!w.not_split_row.empty()) return {false, "no split-row kernel can run it: " + w.not_split_row};
  if (w.negative_control() && s != Schedule::Staged && s != Schedule::GlobalReread && s != Schedule::Cluster)
    return {false, "a negative control is built for the staged, global_reread and cluster kernels only"};
  if (rows < 1 || n < 1) return {false, "rows and width must be at least 1"};
  if (n > (1LL << 30)) return {false, "width above 2^30 elements is not supported"};
  if (!takes_p(s, p)) {
    const std::string ps = std::to_string(p);
    switch (traits_of(s).split) {
      case Split::Cluster: return {false, "cluster size " + ps + " is not one of 2, 4, 8, 16"};
      case Split::LargestCluster:
        return {false, std::string(schedule_name(s)) + " runs as a cluster of " + std::to_string(kPartialClusterSize) +
                           " (the largest, which streams the least of each row), not P = " + ps};
      case Split::Global:
        return {false, std::string(schedule_name(s)) + " split " + ps + " is not in 1.." + std::to_string(kMaxGlobalSplit)};
      case Split::Spread:
        return {false, std::string(schedule_name(s)) + " split " + ps + " is not a power of two from 2 to " +
                           std::to_string(kMaxSpreadSplit)};
      case Split::OneCta: return {false, std::string(schedule_name(s)) + " runs one CTA per row (P = 1)"};
    }
  }
  if (const int ctas = traits_of(s).partial_ctas; ctas > 0) {
    const std::string name = schedule_name(s);
    if (w.figures.b_keep == 0) return {false, name + ": the workload retains nothing in shared memory"};
    const long long keep = partial_keep(w, s, dev);
    if (keep < 1) return {false, name + ": the scratch leaves no shared memory to keep a slice in"};
    if (slice_elements(w, n, p) <= keep)
      return {false, name + ": the slice of " + std::to_string(slice_elements(w, n, p)) + " elements fits whole at " +
                         ctas_per_sm_words(ctas) + " (the cluster schedule keeps it all)"};
  }
  if (const int fam = traits_of(s).register_family; fam >= 0) {
    const int vec = group_elems_of(w.element());
    const std::string why = register_width_refusal(register_width(n, p, vec), RegisterFamily(fam), vec);
    if (!why.empty()) return {false, std::string(schedule_name(s)) + ": " + why};
  }
  if (s == Schedule::Unfused && w.declared != "rms_softmax")
    return {false, "the 9-kernel unfused baseline is seed 001's, written for rms_softmax only"};
  if (rows * p > 0x7fffffffLL) return {false, "grid of rows x P CTAs exceeds 2^31 - 1"};
  const long smem = smem_bytes(w, s, p, n, dev);
  if (smem > dev.smem_per_block_optin)
    return {false, "Eq. 3: ceil(N/P)*b_keep + S_scratch = " + std::to_string(smem) +
                       " B exceeds the device's " + std::to_string(dev.smem_per_block_optin) +
                       " B of shared memory per block"};
  if (traits_of(s).cluster_launch && max_active_clusters(w, s, p, n, dev) < 1)
    return {false, "the device cannot co-schedule a cluster of " + std::to_string(p) +
                       " CTAs with " + std::to_string(smem) + " B of shared memory each"};
  // Both wait for all P CTAs of a row at a barrier: the device must hold them at once (TicketSeat's proof).
  if ((s == Schedule::Megakernel || traits_of(s).split == Split::Spread) && max_active_clusters(w, s, p, n, dev) < p)
    return {false, "the device cannot hold the " + std::to_string(p) + " CTAs of one row at once"};
  return {true, ""};
}

Schedule cuda_baseline(const WorkloadInfo& w, long long n, const DeviceInfo& dev) {
  return smem_bytes(w, Schedule::Staged, 1, n, dev) <= dev.smem_per_block_optin ? Schedule::Staged
                                                                             : Schedule::GlobalReread;
}

namespace {

int query_active(const WorkloadInfo& w, Schedule s, Kernel k, int p, long long n, long smem, const DeviceInfo& dev) {
  prepare(k, s, dev);
  const int vec = group_elems_of(w.element());
  if (!traits_of(s).cluster_launch) {
    int blocks = 0;
    CREDIT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads_for(s, p, n, vec), size_t(smem)));
    if (s == Schedule::Megakernel) {  // both barrier kinds launch the same row groups
      const Kernel grid = kernels_of(w).mega_grid;
      prepare(grid, s, dev);
      int grid_blocks = 0;
      CREDIT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&grid_blocks, grid, threads_for(s, p, n, vec), size_t(smem)));
      blocks = std::min(blocks, grid_blocks);
    }
    return blocks * dev.sm_count;
  }
  cudaLaunchAttribute attr{};
  return active_clusters_or_zero(k, config_for(s, p, p, n, vec, smem, nullptr, &attr));
}

}  // namespace

// Memoised: every launch asks (can_implement, the megakernel's row groups), and the occupancy
// queries cost microseconds of host time that host-completion timing would otherwise include.
int max_active_clusters(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev) {
  const Kernel k = kernel_for(kernels_of(w), s, p, n);
  if (!k) throw std::invalid_argument(std::string(schedule_name(s)) + " has no single kernel at this width: no occupancy");
  const long smem = smem_bytes(w, s, p, n, dev);
  // A per-process fact per device, not scratch: shared by every thread under a lock.
  static std::mutex lock;
  static std::map<std::tuple<Kernel, int, long, std::string>, int> known;
  const auto key = std::make_tuple(k, traits_of(s).cluster_launch ? p : 0, smem, dev.uuid);
  {
    const std::lock_guard<std::mutex> hold(lock);
    const auto it = known.find(key);
    if (it != known.end()) return it->second;
  }
  const int active = query_active(w, s, k, p, n, smem, dev);  // outside the lock: it calls prepare
  const std::lock_guard<std::mutex> hold(lock);
  return known[key] = active;
}

// Column loads ask the L2 to keep their lines where at most this many CTAs share an SM: 0.67-0.88x the time of never
// asking where a wave streams 40 MB or more.
constexpr int kColKeepCtasPerSm = 2;

bool keep_columns_in_l2(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev) {
  const ScheduleTraits& t = traits_of(s);
  // The kernels whose apply pass reads the column parameters (row_phases.cuh, apply_span).
  const bool split_row = s == Schedule::Staged || s == Schedule::GlobalReread || t.split == Split::Cluster ||
                         t.split == Split::LargestCluster || t.split == Split::Spread;
  if (w.figures.col_bytes == 0 || !split_row || dev.sm_count < 1) return false;
  const int active = max_active_clusters(w, s, p, n, dev);
  const long long ctas = t.cluster_launch ? (long long)active * p : active;  // resident CTAs on the device
  return ctas <= (long long)kColKeepCtasPerSm * dev.sm_count;
}

std::vector<KernelResources> kernel_resources(const WorkloadInfo& w) {
  const Kernels& ks = kernels_of(w);
  auto of = [&](Kernel k, std::string name, int threads) {
    cudaFuncAttributes a{};
    CREDIT_CUDA(cudaFuncGetAttributes(&a, k));
    return KernelResources{w.name, std::move(name), threads, a.numRegs, long(a.sharedSizeBytes)};
  };
  std::vector<KernelResources> out;
  for (Schedule s : {Schedule::Staged, Schedule::GlobalReread, Schedule::Cluster})
    out.push_back(of(kernel_for(ks, s, 1, 1), schedule_name(s), threads_for(s, 1, 1, ks.vec)));
  if (const Kernel k = kernel_for(ks, Schedule::SplitGlobal, 2, 1))  // none for a negative control
    out.push_back(of(k, schedule_name(Schedule::SplitGlobal), threads_for(Schedule::SplitGlobal, 2, 1, ks.vec)));
  for (int v = 0; v < kRegisterVariantCount; ++v)
    if (ks.registers[v])  // none for a negative control
      out.push_back(of(ks.registers[v], register_kernel_name(v), kRegisterVariants[v].threads));
  return out;
}

namespace {

// The megakernel: row groups of resident_row_group rows, one cooperative launch each.
void launch_megakernel(const Kernels& ks, int p, const RowOperands& op, const DeviceInfo& dev, long smem,
                       int resident_ctas, const LaunchOptions& opt, Carve& ws, cudaStream_t stream) {
  const long long group = resident_row_group(p, op.rows, resident_ctas);
  const MegaScratch m = carve_megakernel(ws, ks, p, op.rows, op.n, group, opt.switches);
  RowOperands g = op;
  g.split = p;
  g.switches = opt.switches;
  g.partials = m.partials;
  g.arrivals = m.arrivals;
  g.spill = m.spill;
  const bool one_row = group == 1;
  const bool grid = opt.barrier == MegakernelBarrier::Grid || (opt.barrier == MegakernelBarrier::Auto && one_row);
  const Kernel k = grid ? ks.mega_grid : ks.mega_row;
  prepare(k, Schedule::Megakernel, dev);
  cudaLaunchAttribute attr{};
  for (g.row0 = 0; g.row0 < op.rows; g.row0 += group) {
    const cudaLaunchConfig_t cfg =
        config_for(Schedule::Megakernel, p, std::min(group, op.rows - g.row0), op.n, ks.vec, smem, stream, &attr);
    CREDIT_CUDA(cudaLaunchKernelEx(&cfg, k, g));
    CREDIT_CUDA_LAUNCHED();
  }
}

// Local fusion: L + 1 kernels in stream order over rows x P tiles.
void launch_local_fusion(const Kernels& ks, int p, const RowOperands& op, Carve& ws, cudaStream_t stream) {
  RowOperands g = op;
  g.split = p;
  g.partials = carve_local_fusion(ws, ks, p, op.rows);
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = config_for(Schedule::LocalFusion, p, op.rows, op.n, ks.vec, 0, stream, &attr);
  for (int l = 0; l <= ks.stages; ++l) {
    CREDIT_CUDA(cudaLaunchKernelEx(&cfg, ks.fused[l], g));
    CREDIT_CUDA_LAUNCHED();
  }
}

// Seed 001's unfused baseline: 9 launches, intermediates x^2 and E [rows x n], tile results
// [rows x P] and row statistics [rows] in global memory; x and y stored as E.
template <class E>
void launch_unfused(int p, const RowOperands& op, const DeviceInfo& dev, Carve& ws, cudaStream_t stream) {
  namespace u = kernels::unfused;
  const long long count = op.rows * (long long)op.n;
  const UnfusedScratch scratch = carve_unfused(ws, p, op.rows, op.n);
  float* sq_ = scratch.sq;
  float* e_ = scratch.e;
  float* t_ = scratch.tiles;
  float* s_ = scratch.s;
  float* m_ = scratch.m;
  float* z_ = scratch.z;
  const auto* x = reinterpret_cast<const E*>(op.in[0]);
  auto* y = static_cast<E*>(op.out[0]);
  const unsigned elem_blocks = unsigned(std::min<long long>((count + u::kThreads - 1) / u::kThreads, dev.sm_count * 64LL));
  const unsigned tile_blocks = unsigned(op.rows * p);
  const unsigned row_blocks = unsigned((op.rows + u::kRowsPerBlock - 1) / u::kRowsPerBlock);
  u::square<E><<<elem_blocks, u::kThreads, 0, stream>>>(x, sq_, count); CREDIT_CUDA_LAUNCHED();
  u::tile_reduce<false, float><<<tile_blocks, u::kThreads, 0, stream>>>(sq_, t_, op.n, p); CREDIT_CUDA_LAUNCHED();
  u::row_reduce<u::RowOp::InvRms><<<row_blocks, u::kThreads, 0, stream>>>(t_, s_, op.n, p, op.rows); CREDIT_CUDA_LAUNCHED();
  u::tile_reduce<true, E><<<tile_blocks, u::kThreads, 0, stream>>>(x, t_, op.n, p); CREDIT_CUDA_LAUNCHED();
  u::row_reduce<u::RowOp::Max><<<row_blocks, u::kThreads, 0, stream>>>(t_, m_, op.n, p, op.rows); CREDIT_CUDA_LAUNCHED();
  u::exponentials<E><<<elem_blocks, u::kThreads, 0, stream>>>(x, s_, m_, e_, op.n, count); CREDIT_CUDA_LAUNCHED();
  u::tile_reduce<false, float><<<tile_blocks, u::kThreads, 0, stream>>>(e_, t_, op.n, p); CREDIT_CUDA_LAUNCHED();
  u::row_reduce<u::RowOp::Sum><<<row_blocks, u::kThreads, 0, stream>>>(t_, z_, op.n, p, op.rows); CREDIT_CUDA_LAUNCHED();
  u::normalize<E><<<elem_blocks, u::kThreads, 0, stream>>>(e_, z_, y, op.n, count); CREDIT_CUDA_LAUNCHED();
}

// workspace_bytes once can_implement said yes.
size_t workspace_needed(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev,
                        const LaunchOptions& opt) {
  const Kernels& ks = kernels_of(w);
  Carve c;
  switch (s) {
    case Schedule::Megakernel:
      carve_megakernel(c, ks, p, rows, n, resident_row_group(p, rows, max_active_clusters(w, s, p, n, dev)),
                       opt.switches);
      break;
    case Schedule::LocalFusion: carve_local_fusion(c, ks, p, rows); break;
    case Schedule::SplitGlobal: carve_split_global(c, ks, p, rows); break;
    case Schedule::Unfused: carve_unfused(c, p, rows, n); break;
    default: break;
  }
  return c.used;
}

}  // namespace

size_t workspace_bytes(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev,
                       const LaunchOptions& opt) {
  if (!can_implement(w, s, p, rows, n, dev).ok) return 0;  // launch refuses it with the reason
  return workspace_needed(w, s, p, rows, n, dev, opt);
}

void launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op, const DeviceInfo& dev,
            void* workspace, size_t workspace_size, cudaStream_t stream, const LaunchOptions& opt) {
  const Support ok = can_implement(w, s, p, op.rows, op.n, dev);
  if (!ok.ok)
    throw std::invalid_argument(w.name + " " + schedule_name(s) + " P=" + std::to_string(p) +
                                " at " + std::to_string(op.rows) + "x" + std::to_string(op.n) +
                                ": " + ok.reason);
  if ((opt.switches != 0 || opt.barrier != MegakernelBarrier::Auto) && s != Schedule::Megakernel)
    throw std::invalid_argument("barrier choice and switches apply to the megakernel only");
  const size_t need = workspace_needed(w, s, p, op.rows, op.n, dev, opt);
  if (need > 0 && (workspace == nullptr || workspace_size < need))
    throw std::invalid_argument(w.name + " " + schedule_name(s) + " P=" + std::to_string(p) + " needs " +
                                std::to_string(need) + " B of workspace, got " + std::to_string(workspace_size));
  const Kernels& ks = kernels_of(w);
  const long smem = smem_bytes(w, s, p, op.n, dev);
  Carve ws{static_cast<char*>(workspace)};
  switch (s) {
    case Schedule::Megakernel:
      return launch_megakernel(ks, p, op, dev, smem, max_active_clusters(w, s, p, op.n, dev), opt, ws, stream);
    case Schedule::LocalFusion: return launch_local_fusion(ks, p, op, ws, stream);
    case Schedule::Unfused:
      switch (w.element()) {
        case ElementType::BF16: return launch_unfused<__nv_bfloat16>(p, op, dev, ws, stream);
        case ElementType::F16: return launch_unfused<__half>(p, op, dev, ws, stream);
        default: return launch_unfused<float>(p, op, dev, ws, stream);
      }
    default: break;
  }
  const Kernel k = kernel_for(ks, s, p, op.n);
  prepare(k, s, dev);
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = config_for(s, p, op.rows, op.n, ks.vec, smem, stream, &attr);
  RowOperands g = op;
  if (traits_of(s).partial_ctas > 0) g.keep = int(partial_keep(w, s, dev));
  if (traits_of(s).split == Split::Spread) {  // one launch; split_global's seated by tickets (kernels/global_exchange.cuh)
    const SpreadScratch m = carve_split_global(ws, ks, p, op.rows);
    g.row0 = 0;
    g.split = p;
    g.tickets = m.tickets;
    g.arrivals = m.arrivals;
    g.partials = m.partials;
  }
  g.col_keep_l2 = keep_columns_in_l2(w, s, p, op.n, dev);
  CREDIT_CUDA(cudaLaunchKernelEx(&cfg, k, g));
  CREDIT_CUDA_LAUNCHED();
}

}  // namespace credit::gpu
