#include <map>
#include <stdexcept>

#include "core/workloads/all.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/schedules.hpp"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit::gpu {

const char* schedule_name(Schedule s) {
  switch (s) {
    case Schedule::Staged: return "staged";
    case Schedule::GlobalReread: return "global_reread";
    case Schedule::Cluster: return "cluster";
  }
  return "?";
}

Schedule parse_schedule(std::string_view s) {
  for (auto k : {Schedule::Staged, Schedule::GlobalReread, Schedule::Cluster})
    if (s == schedule_name(k)) return k;
  throw std::invalid_argument("unknown schedule '" + std::string(s) +
                              "' (known: staged, global_reread, cluster)");
}

namespace {

using Kernel = void (*)(RowOperands);

struct Kernels {
  Kernel staged, cluster, reread;
  long (*split_smem)(long n, int p);
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
                    &kernels::global_reread_kernel<W>, &split_smem_of<W>};
    });
    return t;
  }();
  const auto it = table.find(w.name);
  if (it == table.end()) throw std::invalid_argument("no kernels for workload '" + w.name + "'");
  return it->second;
}

Kernel kernel_for(const Kernels& k, Schedule s) {
  return s == Schedule::Staged ? k.staged : s == Schedule::Cluster ? k.cluster : k.reread;
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
  }
  return cfg;
}

}  // namespace

long smem_bytes(const WorkloadInfo& w, Schedule s, int p, long long n) {
  if (s == Schedule::GlobalReread) return 0;
  return kernels_of(w).split_smem(long(n), s == Schedule::Staged ? 1 : p);
}

Support can_implement(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                      const DeviceInfo& dev) {
  if (rows < 1 || n < 1) return {false, "rows and width must be at least 1"};
  if (n > (1LL << 30)) return {false, "width above 2^30 elements is not supported"};
  if (s == Schedule::Cluster) {
    if (!is_cluster_size(p))
      return {false, "cluster size " + std::to_string(p) + " is not one of 2, 4, 8, 16"};
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
  const cudaLaunchConfig_t cfg = config_for(s, p, p, smem, nullptr, &attr);
  int clusters = 0;
  const cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, k, &cfg);
  if (e != cudaSuccess) {  // an impossible configuration reads as zero clusters
    cudaGetLastError();
    return 0;
  }
  return clusters;
}

void launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op, const DeviceInfo& dev,
            cudaStream_t stream) {
  const Support ok = can_implement(w, s, p, op.rows, op.n, dev);
  if (!ok.ok)
    throw std::invalid_argument(w.name + " " + schedule_name(s) + " P=" + std::to_string(p) +
                                " at " + std::to_string(op.rows) + "x" + std::to_string(op.n) +
                                ": " + ok.reason);
  const Kernel k = kernel_for(kernels_of(w), s);
  prepare(k, s, dev);
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = config_for(s, p, op.rows, smem_bytes(w, s, p, op.n), stream, &attr);
  CREDIT_CUDA(cudaLaunchKernelEx(&cfg, k, op));
  CREDIT_CUDA_LAUNCHED();
}

}  // namespace credit::gpu
