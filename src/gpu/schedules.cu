#include <map>
#include <stdexcept>

#include "core/workloads/all.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/schedules.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/occupancy.hpp"
#include "kernels/global_exchange.cuh"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

const char* schedule_name(Schedule s) {
  switch (s) {
    case Schedule::Staged: return "staged";
    case Schedule::GlobalReread: return "global_reread";
    case Schedule::Cluster: return "cluster";
    case Schedule::Megakernel: return "megakernel";
  }
  return "?";
}

Schedule parse_schedule(std::string_view s) {
  for (auto k : {Schedule::Staged, Schedule::GlobalReread, Schedule::Cluster, Schedule::Megakernel})
    if (s == schedule_name(k)) return k;
  throw std::invalid_argument("unknown schedule '" + std::string(s) +
                              "' (known: staged, global_reread, cluster, megakernel)");
}

namespace {

using Kernel = void (*)(RowOperands);

struct Kernels {
  Kernel staged, cluster, reread, mega;
  long (*split_smem)(long n, int p);
  int stats, stages;  // Q and L: the megakernel's scratch per row
};

template <class W>
long split_smem_of(long n, int p) { return split_smem_bytes<W>(n, p); }

const Kernels& kernels_of(const WorkloadInfo& w) {
  static const std::map<std::string, Kernels> table = [] {
    std::map<std::string, Kernels> t;
    for_each_workload([&](auto decl) {
      using W = decltype(decl);
      t[W::name] = {&kernels::split_row_kernel<W, kernels::LocalExchange>,
                    &kernels::split_row_kernel<W, kernels::DsmemExchange>,
                    &kernels::global_reread_kernel<W>,
                    &kernels::split_row_kernel<W, kernels::GlobalExchange>,
                    &split_smem_of<W>,
                    num_stats<W>(),
                    num_stages<W>()};
    });
    return t;
  }();
  const auto it = table.find(w.name);
  if (it == table.end()) throw std::invalid_argument("no kernels for workload '" + w.name + "'");
  return it->second;
}

Kernel kernel_for(const Kernels& k, Schedule s) {
  switch (s) {
    case Schedule::Staged: return k.staged;
    case Schedule::Cluster: return k.cluster;
    case Schedule::Megakernel: return k.mega;
    case Schedule::GlobalReread: break;
  }
  return k.reread;
}

int threads_for(Schedule s) {
  return s == Schedule::GlobalReread ? kernels::RereadPolicy::threads : SplitPolicy::threads;
}

// Raises the dynamic shared-memory limit to the device's opt-in maximum, once per kernel.
void prepare(Kernel k, Schedule s, const DeviceInfo& dev) {
  static std::map<Kernel, bool> done;
  if (done[k]) return;
  if (s != Schedule::GlobalReread)
    CREDIT_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(dev.smem_per_block_optin)));
  if (s == Schedule::Cluster)  // P = 16 exceeds the portable cluster size of 8 on Hopper
    CREDIT_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  done[k] = true;
}

cudaLaunchConfig_t config_for(Schedule s, int p, long long rows, long smem, cudaStream_t stream,
                              cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(rows * p));
  cfg.blockDim = dim3(unsigned(threads_for(s)));
  cfg.dynamicSmemBytes = size_t(smem);
  cfg.stream = stream;
  if (s == Schedule::Cluster) {
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = unsigned(p);
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  } else if (s == Schedule::Megakernel) {  // the runtime refuses a grid that is not co-resident
    attr->id = cudaLaunchAttributeCooperative;
    attr->val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  return cfg;
}

}  // namespace

long smem_bytes(const WorkloadInfo& w, Schedule s, int p, long long n) {
  if (s == Schedule::GlobalReread) return 0;  // static shared memory only
  return kernels_of(w).split_smem(long(n), s == Schedule::Staged ? 1 : p);
}

Support can_implement(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                      const DeviceInfo& dev) {
  if (rows < 1 || n < 1) return {false, "rows and width must be at least 1"};
  if (n > (1LL << 30)) return {false, "width above 2^30 elements is not supported"};
  if (s == Schedule::Cluster) {
    if (!is_cluster_size(p))
      return {false, "cluster size " + std::to_string(p) + " is not one of 2, 4, 8, 16"};
  } else if (s == Schedule::Megakernel) {
    if (p < 1 || p > kMaxMegakernelSplit)
      return {false, "megakernel split " + std::to_string(p) + " is not in 1.." + std::to_string(kMaxMegakernelSplit)};
  } else if (p != 1) {
    return {false, std::string(schedule_name(s)) + " runs one CTA per row (P = 1)"};
  }
  if (rows * p > 0x7fffffffLL) return {false, "grid of rows x P CTAs exceeds 2^31 - 1"};
  const long smem = smem_bytes(w, s, p, n);
  if (smem > dev.smem_per_block_optin)
    return {false, "Eq. 3: ceil(N/P)*b_keep + S_scratch = " + std::to_string(smem) +
                       " B exceeds the device's " + std::to_string(dev.smem_per_block_optin) +
                       " B of shared memory per block"};
  if (s == Schedule::Cluster && max_active_clusters(w, s, p, n, dev) < 1)
    return {false, "the device cannot co-schedule a cluster of " + std::to_string(p) +
                       " CTAs with " + std::to_string(smem) + " B of shared memory each"};
  if (s == Schedule::Megakernel && max_active_clusters(w, s, p, n, dev) < p)
    return {false, "the device cannot hold the " + std::to_string(p) + " CTAs of one row at once"};
  return {true, ""};
}

Schedule cuda_baseline(const WorkloadInfo& w, long long n, const DeviceInfo& dev) {
  return smem_bytes(w, Schedule::Staged, 1, n) <= dev.smem_per_block_optin ? Schedule::Staged
                                                                             : Schedule::GlobalReread;
}

int max_active_clusters(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev) {
  const Kernel k = kernel_for(kernels_of(w), s);
  prepare(k, s, dev);
  const long smem = smem_bytes(w, s, p, n);
  if (s != Schedule::Cluster) {
    int blocks = 0;
    CREDIT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads_for(s), size_t(smem)));
    return blocks * dev.sm_count;
  }
  cudaLaunchAttribute attr{};
  return active_clusters_or_zero(k, config_for(s, p, p, smem, nullptr, &attr));
}

namespace {

// The megakernel: row groups of as many rows as the device holds at once (so no CTA waits at a
// row barrier for a CTA that cannot be resident), one cooperative launch each, partials and
// arrival counters in a scratch buffer that grows as needed.
void launch_megakernel(const Kernels& ks, int p, const RowOperands& op, const DeviceInfo& dev, long smem,
                       int resident_ctas, cudaStream_t stream) {
  static DeviceBuffer scratch;
  const long long group = std::max(1, resident_ctas / p);
  const size_t floats = size_t(group) * size_t(ks.stats) * size_t(p);
  const size_t counters = size_t(group) * size_t(ks.stages);
  const size_t bytes = (floats + counters) * 4;
  if (scratch.bytes() < bytes) scratch = DeviceBuffer(bytes);
  RowOperands g = op;
  g.split = p;
  g.partials = scratch.get<float>();
  g.arrivals = reinterpret_cast<unsigned*>(g.partials + floats);
  cudaLaunchAttribute attr{};
  for (g.row0 = 0; g.row0 < op.rows; g.row0 += group) {
    CREDIT_CUDA(cudaMemsetAsync(g.arrivals, 0, counters * 4, stream));
    const cudaLaunchConfig_t cfg =
        config_for(Schedule::Megakernel, p, std::min(group, op.rows - g.row0), smem, stream, &attr);
    CREDIT_CUDA(cudaLaunchKernelEx(&cfg, ks.mega, g));
    CREDIT_CUDA_LAUNCHED();
  }
}

}  // namespace

void launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op, const DeviceInfo& dev,
            cudaStream_t stream) {
  const Support ok = can_implement(w, s, p, op.rows, op.n, dev);
  if (!ok.ok)
    throw std::invalid_argument(w.name + " " + schedule_name(s) + " P=" + std::to_string(p) +
                                " at " + std::to_string(op.rows) + "x" + std::to_string(op.n) +
                                ": " + ok.reason);
  const Kernels& ks = kernels_of(w);
  const Kernel k = kernel_for(ks, s);
  prepare(k, s, dev);
  const long smem = smem_bytes(w, s, p, op.n);
  if (s == Schedule::Megakernel)
    return launch_megakernel(ks, p, op, dev, smem, max_active_clusters(w, s, p, op.n, dev), stream);
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = config_for(s, p, op.rows, smem, stream, &attr);
  CREDIT_CUDA(cudaLaunchKernelEx(&cfg, k, op));
  CREDIT_CUDA_LAUNCHED();
}

}  // namespace credit::gpu
