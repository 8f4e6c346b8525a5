// The Table II microbenchmarks and the control kernel on the GPU: plausible orderings, CTAs on
// distinct SMs, finite T_ctrl.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "calibration/calibrate.hpp"
#include "calibration/control.hpp"
#include "gpu/device/device_query.hpp"
#include "calibration/microbench.hpp"
#include "calibration/placement.hpp"
#include "gpu/measure/timing.hpp"
#include "gpu/launch/schedules.hpp"
#include "model/occupancy.hpp"
#include "model/time_model.hpp"

using namespace credit;

namespace {

const DeviceInfo& device() {
  static const DeviceInfo d = gpu::use_device(0);
  return d;
}

// One full calibration shared by the tests below (well under a second of GPU time).
const Calibration& calibration() {
  static const Calibration c = gpu::run_calibration(device());
  return c;
}

}  // namespace

TEST_CASE("remote DSMEM loads are slower than local shared-memory loads", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  INFO("local " << c.local_load_latency.median << " cycles, remote " << c.remote_load_latency.median);
  CHECK(c.local_load_latency.runs == 15);
  CHECK(c.local_load_latency.median > 1.0);
  CHECK(c.remote_load_latency.median > c.local_load_latency.median);
}

TEST_CASE("cluster barrier cost rises with the cluster size", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  REQUIRE(c.barrier.count(2) == 1);
  REQUIRE(c.barrier.count(16) == 1);
  INFO("P=2 " << c.barrier.at(2).median << " cycles, P=16 " << c.barrier.at(16).median);
  CHECK(c.barrier.at(2).median > 0);
  CHECK(c.barrier.at(16).median > c.barrier.at(2).median);
}

TEST_CASE("throughputs are positive and local reads outrun remote reads", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  for (int p : {2, 4, 8, 16}) {
    INFO("P=" << p);
    REQUIRE(c.local_read.count(p) == 1);
    CHECK(c.local_store.at(p).median > 0);
    CHECK(c.remote_store.at(p).median > 0);
    CHECK(c.remote_read.at(p).median > 0);
    CHECK(c.local_read.at(p).median > c.remote_read.at(p).median);
    // Hopper's shared memory serves 32 banks x 4 B = 128 B per cycle per SM: a figure above
    // that means the loads were hoisted or merged, not measured.
    CHECK(c.local_read.at(p).median <= 130.0);
    CHECK(c.local_store.at(p).median <= 130.0);
    CHECK(c.max_active_clusters.at(p) >= 1);
  }
}

TEST_CASE("the SM clock is measured, not copied from the attribute", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  INFO(c.clock_source);
  CHECK(c.sm_clock_hz > 1e8);
  CHECK(c.sm_clock_hz < 1.1e3 * device().sm_clock_khz);  // at most the boost clock, with slack
  CHECK(c.clock_source.find("clock64") != std::string::npos);
}

TEST_CASE("microbenchmark CTAs of one cluster run on distinct SMs", "[gpu][calibrate]") {
  // Each call checks %smid of every CTA and throws PlacementError when two share an SM.
  CHECK_NOTHROW(gpu::load_latency_cycles(true, device(), 3));
  CHECK_NOTHROW(gpu::cluster_barrier_cycles(16, device(), 3));
  CHECK_NOTHROW(gpu::access_bytes_per_cycle(gpu::Access::RemoteStore, 8, device(), 3));
}

TEST_CASE("the work-free control kernel gives a finite T_ctrl", "[gpu][calibrate]") {
  const WorkloadInfo& w = find_workload("rms_softmax");
  gpu::Timer timer(device());
  for (long long n : {4096LL, 65536LL}) {
    for (int p : {2, 16}) {
      INFO("N=" << n << " P=" << p);
      const gpu::ControlLaunch c = gpu::control_launch(w, w.default_rows, n, p, device());
      CHECK(c.ctas == w.default_rows * p);
      CHECK(c.smem >= c.schedule_smem);
      CHECK(c.barriers == 2 * w.figures.L);
      const double t = gpu::t_ctrl_ms(w, w.default_rows, n, p, device(), timer);
      CHECK(std::isfinite(t));
      CHECK(gpu::control_time_ms(w, w.default_rows, n, p, device(), timer) > 0);
    }
  }
  // A row that cannot be staged at P = 2 has no clustered schedule to control for.
  CHECK_THROWS_AS(gpu::control_launch(w, 16, 1 << 20, 2, device()), std::invalid_argument);
}

// The time model computes occupancy offline from the calibration's kernel resources and device
// limits: it must agree with the occupancy API on the real kernels at narrow, medium and wide
// slices, for every workload and schedule.
TEST_CASE("host occupancy from recorded resources matches the occupancy API", "[gpu][calibrate][occupancy]") {
  const Calibration& c = calibration();
  // staged, global_reread, cluster, split_global and every register variant, in f32, bf16 and fp16
  size_t recorded = 0;
  for (const WorkloadInfo& w : all_workloads()) recorded += size_t(4 + kRegisterVariantCount);
  std::vector<const WorkloadInfo*> checked;
  for (const WorkloadInfo& w : all_workloads()) checked.push_back(&w);
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const WorkloadInfo& w : narrow_workloads(t)) {
      recorded += size_t(4 + kRegisterVariantCount);
      if (t == ElementType::BF16) checked.push_back(&w);
    }
  REQUIRE(c.kernels.size() == recorded);
  REQUIRE(c.cluster_slots.count(16) == 1);
  REQUIRE(c.copies.size() >= 4);
  CHECK(c.copies.back().ms > c.copies.front().ms);
  int compared = 0;
  for (const WorkloadInfo* wp : checked) {
    const WorkloadInfo& w = *wp;
    const int vec = group_elems_of(w.element());  // a register variant holds twice the row in bf16
    for (long long n : {1000LL, 2048LL, 4096LL, 8192LL, 16384LL, 32768LL, 50257LL, 131072LL, 262144LL}) {
      for (const auto& [s, p] : std::vector<std::pair<gpu::Schedule, int>>{
               {gpu::Schedule::Staged, 1}, {gpu::Schedule::GlobalReread, 1}, {gpu::Schedule::Registers, 1},
               {gpu::Schedule::RegistersDeep, 1},
               {gpu::Schedule::Cluster, 2}, {gpu::Schedule::Cluster, 4}, {gpu::Schedule::Cluster, 8},
               {gpu::Schedule::Cluster, 16}, {gpu::Schedule::ClusterRegisters, 2}, {gpu::Schedule::ClusterRegisters, 4},
               {gpu::Schedule::ClusterRegisters, 8}, {gpu::Schedule::ClusterRegisters, 16}}) {
        if (!gpu::can_implement(w, s, p, 4096, n, device()).ok) continue;
        const std::string name = model::kernel_of(gpu::schedule_name(s), n, p, vec);
        const auto k = model::find_kernel(c, w.name, name);
        REQUIRE(k);
        const int per_sm = model::ctas_per_sm(c.limits, device().smem_per_sm, *k, gpu::smem_bytes(w, s, p, n, device()));
        const long long host = model::resident_rows(c, p, per_sm);
        const int api = gpu::max_active_clusters(w, s, p, n, device());
        INFO(w.name << " " << gpu::schedule_name(s) << " P=" << p << " N=" << n << ": " << per_sm
                    << " CTAs/SM, host " << host << " rows, API " << api);
        CHECK(host == api);
        ++compared;
      }
      // split_global: plain CTAs, so the API counts CTAs on the device, not rows.
      for (const auto& [s, p] : std::vector<std::pair<gpu::Schedule, int>>{
               {gpu::Schedule::SplitGlobal, 8}, {gpu::Schedule::SplitGlobal, 32}}) {
        if (!gpu::can_implement(w, s, p, 4096, n, device()).ok) continue;
        const auto k = model::find_kernel(c, w.name, model::kernel_of(gpu::schedule_name(s), n, p, vec));
        REQUIRE(k);
        const int per_sm = model::ctas_per_sm(c.limits, device().smem_per_sm, *k, gpu::smem_bytes(w, s, p, n, device()));
        INFO(w.name << " " << gpu::schedule_name(s) << " P=" << p << " N=" << n << ": " << per_sm << " CTAs/SM");
        CHECK(per_sm * device().sm_count == gpu::max_active_clusters(w, s, p, n, device()));
        ++compared;
      }
    }
  }
  CHECK(compared > 100);
}

TEST_CASE("the SM-work probes: all SMs busy and 16 alone, every workload", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  for (const auto& w : all_workloads()) {
    INFO(w.name);
    REQUIRE(c.elem_ns.count(w.name) == 1);
    REQUIRE(c.elem_ns_lone.count(w.name) == 1);
    const double all = c.elem_ns.at(w.name), lone = c.elem_ns_lone.at(w.name);
    INFO("ns per element per SM: all busy " << all << ", 16 alone " << lone);
    CHECK(std::isfinite(all));
    CHECK(std::isfinite(lone));
    CHECK(all > 0);
    CHECK(lone > 0);
  }
}

TEST_CASE("the kernel probes: staged, global_reread and the clustered kernel of every workload, near the formula", "[gpu][calibrate]") {
  const Calibration& c = calibration();
  const TimeModelParams prm = model::h200_params();
  const model::CopyLine copy = model::copy_line(c.copies);
  for (const auto& w : all_workloads()) {
    INFO(w.name);
    REQUIRE(c.kernel_probes.count(w.name) == 1);
    for (const char* s : {"staged", "global_reread", "cluster"}) {
      INFO(s);
      const auto& probes = c.kernel_probes.at(w.name);
      REQUIRE(probes.count(s) == 1);
      const KernelProbe& pr = probes.at(s);
      CHECK(pr.p == (std::string(s) == "cluster" ? 4 : 1));
      REQUIRE(pr.ms > 0);
      // The model at the probe's shape (the staged and global_reread kernels' formula alone: their probes
      // scale nothing): legal, and within the [1/2, 2] the model trusts a probe's factor in (outside it a
      // probe is taken as broken and ignored).
      const auto at = model::candidate_time(w.figures, w.name, c, prm, copy, s, pr.p, pr.m, pr.n);
      REQUIRE(at.legal);
      INFO("probe " << pr.ms << " ms, formula " << at.t_ms << " ms");
      CHECK(pr.ms > 0.5 * at.t_ms);
      CHECK(pr.ms < 2.0 * at.t_ms);
    }
  }
  // In bf16 every register variant has a probe of its own, at its widest row in the type.
  for (const auto& w : narrow_workloads(ElementType::BF16)) {
    REQUIRE(c.kernel_probes.count(w.name) == 1);
    const auto& probes = c.kernel_probes.at(w.name);
    for (int v = 0; v < kRegisterVariantCount; ++v) {
      INFO(w.name << " " << register_kernel_name(v));
      REQUIRE(probes.count(register_kernel_name(v)) == 1);
      CHECK(probes.at(register_kernel_name(v)).n == 8LL * kRegisterVariants[v].threads * kRegisterVariants[v].groups *
                                                        (kRegisterVariants[v].family == RegisterFamily::Cluster ? 4 : 1));
      CHECK(probes.at(register_kernel_name(v)).ms > 0);
    }
    for (const char* s : {"partial", "partial_one"}) {  // the partial kernels at 2^21 elements: fp32's 2^20 in bytes
      if (w.figures.b_keep == 0) continue;
      INFO(w.name << " " << s);
      REQUIRE(probes.count(s) == 1);
      CHECK(probes.at(s).n == 2LL << 20);
      CHECK(probes.at(s).ms > 0);
    }
  }
}
