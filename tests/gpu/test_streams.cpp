// The public launchers (include/credit/launch.hpp) with caller-owned workspace: two problems of
// the schedules that take workspace (partials and barrier counters through global memory) run on
// two streams at once, each with its own workspace, and both stay correct.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "credit/launch.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

using namespace credit;

namespace {

// A host problem's tensors on the device, as the public Tensors, with the problem's workspace.
struct OnDevice {
  std::vector<gpu::DeviceBuffer> bufs;
  Tensors t;
  gpu::DeviceBuffer workspace;

  OnDevice(HostProblem& h, const Problem& pb) {
    h.poison_outputs();
    auto up = [&](const void* src, size_t bytes) {
      bufs.emplace_back(bytes);
      bufs.back().upload(src, bytes);
      return bufs.back().get();
    };
    for (auto& v : h.in) t.inputs.push_back(static_cast<const float*>(up(v.data(), v.size() * 4)));
    for (auto& v : h.col) t.col_params.push_back(static_cast<const float*>(up(v.data(), v.size() * 4)));
    for (auto& v : h.row_in) t.row_params.push_back(static_cast<const float*>(up(v.data(), v.size() * 4)));
    for (auto& v : h.out) t.outputs.push_back(up(v.data(), v.size()));
    for (auto& v : h.row_out) t.row_outputs.push_back(static_cast<float*>(up(v.data(), v.size() * 4)));
    workspace = gpu::DeviceBuffer(workspace_bytes(pb));
    if (workspace.bytes()) workspace.fill_bytes(0);  // zero before the first run of the problem
  }

  void download(HostProblem& h) const {
    for (size_t k = 0; k < h.out.size(); ++k)
      CREDIT_CUDA(cudaMemcpy(h.out[k].data(), t.outputs[k], h.out[k].size(), cudaMemcpyDeviceToHost));
  }
};

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { CREDIT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s); }
};

}  // namespace

TEST_CASE("two launches on two streams at once stay correct with a workspace each", "[gpu][streams]") {
  struct Case {
    Schedule s;
    int p;
  };
  // Small grids (8 rows x P CTAs) so that both problems' CTAs can be resident together.
  for (Case c : {Case{Schedule::Megakernel, 8}, Case{Schedule::Megakernel, 2}, Case{Schedule::LocalFusion, 4},
                 Case{Schedule::Unfused, 4}}) {
    const Problem pb{"rms_softmax", c.s, c.p, 8, 32768};
    INFO(schedule_name(c.s) << " P=" << c.p);
    REQUIRE(can_implement(pb));
    CHECK(workspace_bytes(pb) > 0);
    HostProblem a = make_random_problem(find_workload("rms_softmax"), pb.m, int(pb.n), 11);
    HostProblem b = make_random_problem(find_workload("rms_softmax"), pb.m, int(pb.n), 12);
    const Reference64 ra = reference64(a), rb = reference64(b);
    OnDevice da(a, pb), db(b, pb);
    Stream s1, s2;
    for (int i = 0; i < 20; ++i) {  // interleaved, nothing synchronised in between
      run(pb, da.t, da.workspace.get(), da.workspace.bytes(), s1.s);
      run(pb, db.t, db.workspace.get(), db.workspace.bytes(), s2.s);
    }
    CREDIT_CUDA(cudaDeviceSynchronize());
    da.download(a);
    db.download(b);
    CHECK(rel_l2(a.out_f32(0), ra.out[0]) <= 1e-5);
    CHECK(rel_l2(b.out_f32(0), rb.out[0]) <= 1e-5);
  }
}

TEST_CASE("the public launchers refuse a missing workspace and mismatched tensors", "[gpu][streams]") {
  const Problem mega{"rms_softmax", Schedule::Megakernel, 8, 8, 32768};
  HostProblem h = make_random_problem(find_workload("rms_softmax"), 8, 32768, 3);
  OnDevice d(h, mega);
  CHECK_THROWS_AS(run(mega, d.t, nullptr, 0, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(run(mega, d.t, d.workspace.get(), d.workspace.bytes() - 1, nullptr), std::invalid_argument);
  Tensors missing = d.t;
  missing.inputs.clear();
  CHECK_THROWS_AS(run(mega, missing, d.workspace.get(), d.workspace.bytes(), nullptr), std::invalid_argument);
  Tensors offset = d.t;  // a base one float off the 16-byte grid (a tensor slice): refused, nothing launched
  offset.inputs[0] += 1;
  CHECK_THROWS_WITH(run(mega, offset, d.workspace.get(), d.workspace.bytes(), nullptr),
                    "rms_softmax: inputs 0 is not 16-byte aligned (cudaMalloc's pointers are)");
  const Problem cluster{"rms_softmax", Schedule::Cluster, 8, 8, 32768};
  CHECK(workspace_bytes(cluster) == 0);
  CHECK_FALSE(can_implement({"rms_softmax", Schedule::Cluster, 3, 8, 32768}));
  CHECK_THROWS_AS(run({"rms_softmax", Schedule::Cluster, 3, 8, 32768}, d.t, nullptr, 0, nullptr),
                  std::invalid_argument);
  run(cluster, d.t, nullptr, 0, nullptr);  // no workspace needed
  CREDIT_CUDA(cudaDeviceSynchronize());
  d.download(h);
  CHECK(rel_l2(h.out_f32(0), reference64(h).out[0]) <= 1e-5);
}
