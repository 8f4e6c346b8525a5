// Seed 001's ladder on the GPU: every rung, by direct launch and by graph replay, checked
// against the CPU execution on every row (LadderShape poisons the outputs first), and the
// floors; timing values only have to exist (speed is measured by run-sweep, not asserted).
#include <cmath>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/seed001/ladder.hpp"

using namespace credit;
using gpu::Schedule;

namespace {

const DeviceInfo& device() {
  static const DeviceInfo d = gpu::use_device(0);
  return d;
}

void require_passed(const SweepPoint& pt) {
  INFO(pt.workload << " " << pt.m << "x" << pt.n << " " << pt.schedule << " P=" << pt.p << " " << pt.submission
                   << " " << pt.variant << ": " << pt.reason);
  REQUIRE(pt.disposition == Disposition::Passed);
  CHECK(pt.max_rel_l2_error <= 1e-5);
  CHECK(pt.time_ms.runs == 5);
  CHECK(std::isfinite(pt.time_ms.median));
  CHECK(pt.time_ms.median > 0);
  CHECK(pt.gpu_time_ms.runs == 5);
}

}  // namespace

TEST_CASE("every ladder rung passes by direct launch and by graph replay", "[gpu][ladder]") {
  const WorkloadInfo& w = find_workload("rms_softmax");
  for (long long rows : {1LL, 16LL, 64LL}) {
    gpu::LadderShape shape(w, rows, 131072, device(), 100 + rows);
    for (bool graph : {false, true}) {
      for (auto s : {Schedule::Unfused, Schedule::LocalFusion, Schedule::Megakernel})
        for (int p : {8, 64}) require_passed(shape.measure({s, p, graph, {}}, 1, 5));
      require_passed(shape.measure({Schedule::Cluster, 16, graph, {}}, 1, 5));
      require_passed(shape.measure_floor(gpu::Floor::EmptyKernel, graph, 1, 5));
      require_passed(shape.measure_floor(gpu::Floor::Copy, graph, 1, 5));
    }
    for (auto barrier : {gpu::MegakernelBarrier::Grid, gpu::MegakernelBarrier::Row})
      for (unsigned sw = 0; sw < 4; ++sw) {
        const SweepPoint pt = shape.measure({Schedule::Megakernel, 32, true, {barrier, sw}}, 1, 5);
        require_passed(pt);
        CHECK(pt.variant.rfind(barrier == gpu::MegakernelBarrier::Grid ? "grid" : "row", 0) == 0);
        CHECK((pt.variant.find("reload_input") != std::string::npos) == bool(sw & kReloadInputs));
        CHECK((pt.variant.find("spill_retained") != std::string::npos) == bool(sw & kSpillRetained));
      }
  }
}

TEST_CASE("a rung that cannot run is recorded, not launched", "[gpu][ladder]") {
  gpu::LadderShape shape(find_workload("layernorm"), 4, 8192, device(), 5);
  const SweepPoint unfused = shape.measure({Schedule::Unfused, 8, false, {}}, 1, 5);
  CHECK(unfused.disposition == Disposition::NotSupported);
  CHECK(unfused.reason.find("rms_softmax only") != std::string::npos);
  const SweepPoint cluster = shape.measure({Schedule::Cluster, 3, true, {}}, 1, 5);
  CHECK(cluster.disposition == Disposition::NotSupported);
  require_passed(shape.measure({Schedule::LocalFusion, 4, true, {}}, 1, 5));
}

// The ladder in bf16: every rung runs in the type (the unfused chain too, its
// intermediates in fp32) and is checked against the CPU execution within the bf16 tolerance; the floors copy the typed
// operator's bytes; the unfused chain of another workload is refused with the reason.
TEST_CASE("the ladder in bf16: the rungs built in it pass, the others are recorded", "[gpu][ladder][dtype]") {
  const WorkloadInfo& w = find_workload("rms_softmax@bf16");
  const double tolerance = output_tolerance(ElementType::BF16);
  for (long long rows : {1LL, 16LL}) {
    gpu::LadderShape shape(w, rows, 131072, device(), 1700 + rows);
    auto passed = [&](const SweepPoint& pt) {
      INFO(pt.schedule << " P=" << pt.p << " " << pt.submission << " " << pt.variant << ": " << pt.reason);
      REQUIRE(pt.disposition == Disposition::Passed);
      CHECK(pt.workload == "rms_softmax@bf16");
      CHECK(pt.max_rel_l2_error <= tolerance);
      CHECK(pt.time_ms.median > 0);
    };
    for (bool graph : {false, true}) {
      for (auto s : {Schedule::Megakernel, Schedule::LocalFusion})
        for (int p : {8, 64}) passed(shape.measure({s, p, graph, {}}, 1, 5));
      passed(shape.measure({Schedule::Cluster, 16, graph, {}}, 1, 5));
      passed(shape.measure({Schedule::ClusterRegisters, 16, graph, {}}, 1, 5));
      for (int p : {8, 64}) passed(shape.measure({Schedule::Unfused, p, graph, {}}, 1, 5));
      passed(shape.measure_floor(gpu::Floor::Copy, graph, 1, 5));
    }
    for (auto barrier : {gpu::MegakernelBarrier::Grid, gpu::MegakernelBarrier::Row})
      for (unsigned sw = 0; sw < 4; ++sw) passed(shape.measure({Schedule::Megakernel, 32, true, {barrier, sw}}, 1, 5));
  }
  gpu::LadderShape other(find_workload("layernorm@bf16"), 2, 4096, device(), 1799);
  const SweepPoint unfused = other.measure({Schedule::Unfused, 8, false, {}}, 1, 5);
  CHECK(unfused.disposition == Disposition::NotSupported);
  CHECK(unfused.reason.find("rms_softmax only") != std::string::npos);
}
