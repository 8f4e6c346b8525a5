#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <string>
#include <vector>
#include <stdexcept>

#include "core/line_fit.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "gpu/launch/cluster_launch.hpp"
#include "calibration/model_inputs.hpp"
#include "gpu/measure/bench.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/launch/device_problem.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/measure/timing.hpp"
#include "microbench/control.cuh"
#include "microbench/residency.cuh"

namespace credit::gpu {

namespace {

// The work-free cluster kernel stands for any kernel of SplitPolicy::threads: only its shared
// memory, chosen so that exactly k CTAs fit one SM, decides how many clusters are resident.
// 0 where no such amount exists.
// (measure_model_inputs lets both kernels below take large clusters and shared memory, once.)
long smem_for_k(int k, const DeviceInfo& dev) {
  auto* kern = &microbench::control_kernel<true>;
  auto blocks = [&](long smem) {
    int b = 0;
    CREDIT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kern, SplitPolicy::threads, size_t(smem)));
    return b;
  };
  long smem = std::min<long>(dev.smem_per_block_optin, dev.smem_per_sm / k) / 128 * 128;
  while (smem > 0 && blocks(smem) < k) smem -= 128;
  while (smem <= dev.smem_per_block_optin && blocks(smem) > k) smem += 128;
  return smem <= 0 || smem > dev.smem_per_block_optin || blocks(smem) != k ? 0 : smem;
}

int api_slots_at(int p, long smem) {
  return cluster_capacity(&microbench::control_kernel<true>, ClusterShape{unsigned(p), p, SplitPolicy::threads, size_t(smem)});
}

// Clusters of p CTAs with `smem` each that run at once, counted by the residency kernel over a
// launch of three times the API's capacity (at least 8 clusters), each CTA spinning for 40 us.
int run_slots_at(int p, long smem, int api_slots, double sm_clock_hz) {
  auto* kern = &microbench::residency_kernel;
  DeviceBuffer counts(2 * sizeof(unsigned));
  counts.fill_bytes(0);
  const unsigned clusters = unsigned(std::max(8, 3 * api_slots));
  const auto cycles = (long long)(40e-6 * (sm_clock_hz > 0 ? sm_clock_hz : 2e9));
  launch_shape(kern, ClusterShape{clusters * unsigned(p), p, SplitPolicy::threads, size_t(smem)}, nullptr, cycles,
               counts.get<unsigned>(), counts.get<unsigned>() + 1);
  CREDIT_CUDA(cudaDeviceSynchronize());
  unsigned host[2] = {0, 0};
  counts.download(host, sizeof host);
  return int(host[1]) / p;
}

// ns one SM spends per element of workload w with its operands in the L2: the slope of the
// staged kernel's time over four widths (least squares; warm L2, no flush), times the SMs. Rows
// are chosen so that the widest problem's compulsory bytes stay well inside the L2. Each sample
// times several launches back to back: one launch of a few microseconds left the slope at the
// mercy of launch jitter (wvar_bwd read 0.34 to 0.65 ns in four calibrations). The slope is the median
// of kRounds measured one after another over the same problems: a single slope still strayed (one
// H200 calibration of 2026-12-02 read 0.67-0.82 of six others' for six workloads, and moved a held-out
// sweep's regret by 0.1 points).
double probe_slope_ns(const WorkloadInfo& w, const DeviceInfo& dev, Timer& timer, long long rows,
                      const std::vector<double>& widths) {
  constexpr int kLaunches = 8;
  constexpr int kRounds = 5;
  std::vector<std::unique_ptr<DeviceProblem>> probs;
  for (double n : widths) {
    probs.push_back(std::make_unique<DeviceProblem>(w, rows, (long long)n, 20261130 + int(n)));
    const CheckResult chk = check_schedule(*probs.back(), Schedule::Staged, 1, dev, timer.stream(), 7);
    if (!chk.ok) throw std::runtime_error(w.name + " probe: the staged kernel is wrong: " + chk.reason);
  }
  std::vector<double> slopes;
  for (int r = 0; r < kRounds; ++r) {
    std::vector<double> ms;
    for (const auto& prob : probs)
      ms.push_back(timer.time([&] {
                     for (int i = 0; i < kLaunches; ++i)
                       prob->workspace().launch(w, Schedule::Staged, 1, prob->operands(), dev, timer.stream());
                   },
                   TimingOptions{3, 31, false}).median / kLaunches);
    slopes.push_back(least_squares(widths, ms).slope);  // ms per element of every row
  }
  std::nth_element(slopes.begin(), slopes.begin() + kRounds / 2, slopes.end());
  return std::max(0.0, slopes[kRounds / 2] * 1e6);  // ns per element of each row, the launch's rows together
}

double probe_elem_ns(const WorkloadInfo& w, const DeviceInfo& dev, Timer& timer) {
  const std::vector<double> widths{1024, 2048, 3072, 4096};
  const double budget = 0.4 * double(dev.l2_bytes);
  const long long rows = std::max<long long>(dev.sm_count, (long long)(budget / (widths.back() * w.figures.compulsory)));
  return probe_slope_ns(w, dev, timer, rows, widths) * dev.sm_count / double(rows);  // each SM takes rows / S of them
}

// The same slope with only kLoneRows SMs busy, one CTA each (Calibration::elem_ns_lone): what one SM
// spends per element when it shares the L2 with few others. The rows run side by side, one per SM,
// so the launch's slope is one SM's, not divided by the rows as well (that would read 1/16 of it).
// Wider rows than the probe above, so that a lone CTA's work outlasts a launch's issue interval; the
// widths the staged kernel takes.
constexpr long long kLoneRows = 16;
double probe_lone_elem_ns(const WorkloadInfo& w, const DeviceInfo& dev, Timer& timer) {
  std::vector<double> widths;
  for (double n : {4096.0, 8192.0, 12288.0, 16384.0})
    if (can_implement(w, Schedule::Staged, 1, kLoneRows, (long long)n, dev).ok) widths.push_back(n);
  if (widths.size() < 2) return -1;  // no slope to take: left out of the calibration
  return probe_slope_ns(w, dev, timer, kLoneRows, widths);
}

// The kernel probes (Calibration::kernel_probes): each partial-retention schedule of workload w at
// 64 x 2^20, keyed by its schedule, the staged, global_reread and clustered kernels keyed by theirs
// (probe_shapes_of), and each register-resident kernel variant at 2048 rows of its
// widest row, keyed by its kernel name ("registers/512x8": a variant is its own kernel, with its own
// threads and loads per thread, so one variant's probe does not time another's). Each is checked
// against the CPU execution, then timed as a sweep times a point (L2 flushed before each launch).
// 2^20 columns (2^21 in bf16 and fp16, the same bytes) stream about half of each partial slice at one CTA per SM;
// the rows make several waves at any of these kernels' CTAs per SM. One problem per shape serves its kernels.
struct ProbeShape {
  long long m, n;
  int p;
  std::string key;
};

std::vector<ProbeShape> probe_shapes_of(const ScheduleTraits& t, int vec) {
  std::vector<ProbeShape> out;
  if (!t.candidate) return out;
  if (t.partial_ctas > 0) out.push_back({64, (1LL << 20) / SplitPolicy::vec * vec, kPartialClusterSize, t.name});
  // The staged and global_reread kernels at 2048 x 8192 (several waves at their CTAs per SM); the
  // clustered kernel at 1024 rows of 32768 as P = 4 (slices of 8192, several waves), serving every P.
  if (t.id == Schedule::Staged || t.id == Schedule::GlobalReread) out.push_back({2048, 8192, 1, t.name});
  if (t.id == Schedule::Cluster) out.push_back({1024, 32768, 4, t.name});
  // A cluster_registers variant: 512 rows of four of its slices at P = 4 (several waves at its CTAs per SM).
  const bool cluster = t.split == Split::Cluster;
  if (t.register_family >= 0)
    for (int v = 0; v < kRegisterVariantCount; ++v)
      if (int(kRegisterVariants[v].family) == t.register_family) {
        const long long widest = 1LL * vec * kRegisterVariants[v].threads * kRegisterVariants[v].groups;
        out.push_back(cluster ? ProbeShape{512, 4 * widest, 4, register_kernel_name(v)}
                              : ProbeShape{2048, widest, 1, register_kernel_name(v)});
      }
  return out;
}

std::map<std::string, KernelProbe> probe_kernels(const WorkloadInfo& w, const DeviceInfo& dev, Timer& timer) {
  std::map<std::pair<long long, long long>, std::vector<std::pair<const ScheduleTraits*, ProbeShape>>> by_shape;
  for (const ScheduleTraits& t : schedule_traits())
    for (const ProbeShape& sh : probe_shapes_of(t, group_elems_of(w.element())))
      if (can_implement(w, t.id, sh.p, sh.m, sh.n, dev).ok) by_shape[{sh.m, sh.n}].push_back({&t, sh});
  std::map<std::string, KernelProbe> out;
  for (const auto& [shape, kernels] : by_shape) {
    DeviceProblem prob(w, shape.first, shape.second, 20261202);
    for (const auto& [t, sh] : kernels) {
      const CheckResult chk = check_schedule(prob, t->id, sh.p, dev, timer.stream(), 11);
      if (!chk.ok) throw std::runtime_error(w.name + " kernel probe: " + sh.key + " is wrong: " + chk.reason);
      const double ms = timer.time([&] { prob.workspace().launch(w, t->id, sh.p, prob.operands(), dev, timer.stream()); },
                                   TimingOptions{3, 15, true}).median;
      out[sh.key] = KernelProbe{shape.first, shape.second, ms, sh.p};
    }
  }
  return out;
}

}  // namespace

// Every workload the time model predicts for: the declared ones in f32, bf16 and f16 (each type has kernels, and so
// resources and probes, of its own).
static std::vector<const WorkloadInfo*> modelled_workloads() {
  std::vector<const WorkloadInfo*> out;
  for (const WorkloadInfo& w : all_workloads()) out.push_back(&w);
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const WorkloadInfo& w : narrow_workloads(t)) out.push_back(&w);
  return out;
}

void measure_model_inputs(Calibration& c, const DeviceInfo& dev, const std::vector<int>& ps) {
  const std::vector<const WorkloadInfo*> modelled = modelled_workloads();
  int device = 0;
  CREDIT_CUDA(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CREDIT_CUDA(cudaGetDeviceProperties(&prop, device));
  c.limits.regs_per_sm = prop.regsPerMultiprocessor;
  c.limits.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  c.limits.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  c.limits.reserved_smem_per_block = long(prop.reservedSharedMemPerBlock);

  c.kernels.clear();
  for (const WorkloadInfo* w : modelled)
    for (auto& k : kernel_resources(*w)) c.kernels.push_back(std::move(k));

  c.cluster_slots.clear();
  c.cluster_slots_run.clear();
  const int max_k = std::max(1, c.limits.max_threads_per_sm / SplitPolicy::threads);
  allow_large_clusters(&microbench::control_kernel<true>, dev.smem_per_block_optin);
  allow_large_clusters(&microbench::residency_kernel, dev.smem_per_block_optin);
  for (int p : ps) {
    std::vector<int> api, ran;
    for (int k = 1; k <= max_k; ++k) {
      const long smem = smem_for_k(k, dev);
      api.push_back(smem > 0 ? api_slots_at(p, smem) : 0);
      ran.push_back(smem > 0 && api.back() > 0 ? run_slots_at(p, smem, api.back(), c.sm_clock_hz) : 0);
    }
    c.cluster_slots[p] = api;
    c.cluster_slots_run[p] = ran;
  }

  // Copies from 1 MiB to 1 GiB of traffic: the slope is the bandwidth, the intercept the launch
  // and tail a short kernel cannot avoid.
  Timer timer(dev);
  c.copies.clear();
  for (double bytes = double(1 << 20); bytes <= double(1 << 30) * 1.01; bytes *= 4)
    c.copies.push_back({bytes, time_copy_of_traffic(timer, bytes, TimingOptions{3, 15, true}).median});
  c.elem_ns.clear();
  for (const WorkloadInfo* w : modelled) c.elem_ns[w->name] = probe_elem_ns(*w, dev, timer);
  c.elem_ns_lone.clear();
  for (const WorkloadInfo* w : modelled)
    if (const double ns = probe_lone_elem_ns(*w, dev, timer); ns >= 0) c.elem_ns_lone[w->name] = ns;
  c.kernel_probes.clear();
  for (const WorkloadInfo* w : modelled) {
    auto probes = probe_kernels(*w, dev, timer);
    if (!probes.empty()) c.kernel_probes[w->name] = std::move(probes);
  }
}

}  // namespace credit::gpu
