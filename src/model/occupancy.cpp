#include "model/occupancy.hpp"

#include <algorithm>

namespace credit::model {

namespace {
constexpr long kSmemGranule = 128;  // shared memory is allocated per CTA in these units
constexpr int kRegGranule = 256;    // registers are allocated per warp in these units
constexpr int kSubPartitions = 4;   // the register file is split among the SM's four warp schedulers

// Shared memory one CTA takes of its SM: its static and dynamic bytes in allocation units, and the
// runtime's reserve.
long cta_smem_bytes(const OccupancyLimits& lim, const KernelResources& k, long dynamic_smem) {
  return (k.static_smem + dynamic_smem + kSmemGranule - 1) / kSmemGranule * kSmemGranule + lim.reserved_smem_per_block;
}
}  // namespace

int ctas_per_sm(const OccupancyLimits& lim, long smem_per_sm, const KernelResources& k, long dynamic_smem) {
  if (k.threads < 1 || lim.max_blocks_per_sm < 1 || lim.max_threads_per_sm < 1) return 0;
  int n = std::min(lim.max_blocks_per_sm, lim.max_threads_per_sm / k.threads);
  const int warps = (k.threads + 31) / 32;
  if (k.regs > 0 && lim.regs_per_sm > 0) {
    const int per_warp = (k.regs * 32 + kRegGranule - 1) / kRegGranule * kRegGranule;
    // A warp's registers come from one quarter of the file: 21.3 warps of 96 registers fit the
    // whole file but only 4 x 5 = 20 the quarters (what cudaOccupancy* says for a warp per CTA).
    n = std::min(n, (lim.regs_per_sm / kSubPartitions / per_warp) * kSubPartitions / warps);
  }
  const long smem = cta_smem_bytes(lim, k, dynamic_smem);
  if (smem > 0) n = std::min<long>(n, smem_per_sm / smem);
  return std::max(0, n);
}

std::optional<KernelResources> find_kernel(const Calibration& c, const std::string& workload,
                                           const std::string& schedule) {
  for (const auto& k : c.kernels)
    if (k.workload == workload && k.schedule == schedule) return k;
  return std::nullopt;
}

long long resident_rows(const Calibration& c, int p, int ctas_per_sm, bool cluster) {
  if (ctas_per_sm < 1) return 0;
  if (p == 1 || !cluster) return (long long)ctas_per_sm * c.device.sm_count / std::max(1, p);
  // The clusters counted running at once where the calibration has them, else the API's figure.
  for (const auto* table : {&c.cluster_slots_run, &c.cluster_slots}) {
    const auto it = table->find(p);
    if (it == table->end() || it->second.empty()) continue;
    const int k = std::min<int>(ctas_per_sm, int(it->second.size()));
    return it->second[size_t(k - 1)];
  }
  return 0;
}

}  // namespace credit::model
