#include "gpu/seed001/ladder.hpp"

#include <algorithm>
#include <numeric>

#include "gpu/measure/bench.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/seed001/host_timing.hpp"

namespace credit::gpu {

namespace {
__global__ void empty_kernel() {}
}  // namespace

std::string variant_name(const Rung& r) {
  if (r.schedule != Schedule::Megakernel) return "";
  std::string v = r.opt.barrier == MegakernelBarrier::Row ? "row" : r.opt.barrier == MegakernelBarrier::Grid ? "grid" : "auto";
  if (r.opt.switches & kReloadInputs) v += "+reload_input";
  if (r.opt.switches & kSpillRetained) v += "+spill_retained";
  return v;
}

LadderShape::LadderShape(const WorkloadInfo& w, long long rows, long long n, const DeviceInfo& dev, std::uint64_t seed)
    : dev_(dev), prob_(w, rows, n, seed), timer_(dev), all_rows_(size_t(rows)) {
  std::iota(all_rows_.begin(), all_rows_.end(), 0LL);
}

SweepPoint LadderShape::base_point(const std::string& schedule, int p, bool graph) const {
  const RowOperands& op = prob_.operands();
  SweepPoint pt;
  pt.workload = prob_.workload().name;
  pt.m = op.rows;
  pt.n = op.n;
  pt.schedule = schedule;
  pt.p = p;
  pt.submission = graph ? "graph" : "direct";
  pt.compulsory_bytes = compulsory_bytes(prob_.workload(), op.rows, op.n);
  pt.traffic_bytes = pt.compulsory_bytes;
  return pt;
}

// Host completion of the submission (a direct enqueue or a graph replay), then its GPU time.
void LadderShape::time_point(SweepPoint& pt, const std::function<void()>& submit, int warmup, int samples) {
  pt.time_ms = time_host_completion(submit, timer_.stream(), warmup, samples);
  pt.gpu_time_ms = timer_.time(submit, TimingOptions{warmup, samples, false});
  pt.gbps = pt.compulsory_bytes / (pt.time_ms.median * 1e6);
  pt.disposition = Disposition::Passed;
}

SweepPoint LadderShape::measure(const Rung& r, int warmup, int samples) {
  const WorkloadInfo& w = prob_.workload();
  const RowOperands& op = prob_.operands();
  SweepPoint pt = base_point(schedule_name(r.schedule), r.p, r.graph);
  pt.variant = variant_name(r);
  pt.traffic_bytes = schedule_traffic_bytes(w, r.schedule, r.p, op.rows, op.n, dev_);
  const Support sup = can_implement(w, r.schedule, r.p, op.rows, op.n, dev_);
  if (!sup.ok) {
    pt.disposition = Disposition::NotSupported;
    pt.reason = sup.reason;
    return pt;
  }
  const cudaStream_t s = timer_.stream();
  const auto enqueue = [&] { prob_.workspace().launch(w, r.schedule, r.p, op, dev_, s, r.opt); };
  try {
    enqueue();  // first use: the workspace grows and is cleared here, never during capture
    CREDIT_CUDA(cudaStreamSynchronize(s));
    std::optional<CapturedGraph> g;
    if (r.graph) g.emplace(enqueue, s);
    const auto submit = [&] { r.graph ? g->launch(s) : enqueue(); };
    const CheckResult chk = check_outputs(prob_, submit, s, all_rows_);
    pt.max_rel_l2_error = chk.max_rel_l2_error;
    if (!chk.ok) {
      pt.disposition = Disposition::Incorrect;
      pt.reason = chk.reason;
      return pt;
    }
    time_point(pt, submit, warmup, samples);
  } catch (const std::exception& e) {  // e.g. a graph the driver cannot capture
    cudaGetLastError();
    pt.disposition = Disposition::Failed;
    pt.reason = e.what();
  }
  return pt;
}

SweepPoint LadderShape::measure_floor(Floor f, bool graph, int warmup, int samples) {
  const RowOperands& op = prob_.operands();
  const cudaStream_t s = timer_.stream();
  SweepPoint pt = base_point(f == Floor::Copy ? kCopySchedule : kEmptyKernelSchedule, 1, graph);
  // The copy moves as many bytes as the operator must (reads + writes), at most y's buffer (a float output stored in
  // the workload's element type, an int8 one in a byte).
  const WorkloadInfo& w = prob_.workload();
  const int stored = w.outputs[0].type == OutType::I8 ? 1 : element_bytes(w.element());
  const size_t out_buffer = size_t(op.rows) * size_t(op.n) * size_t(stored);
  const size_t bytes = std::min(size_t(pt.compulsory_bytes / 2), out_buffer);
  const std::function<void()> enqueue = f == Floor::Copy
      ? std::function<void()>([&] {
          CREDIT_CUDA(cudaMemcpyAsync(op.out[0], op.in[0], bytes, cudaMemcpyDeviceToDevice, s));
        })
      : std::function<void()>([&] {
          empty_kernel<<<1, 32, 0, s>>>();
          CREDIT_CUDA_LAUNCHED();
        });
  if (f == Floor::Copy) pt.traffic_bytes = double(2 * bytes);
  try {
    std::optional<CapturedGraph> g;
    if (graph) g.emplace(enqueue, s);
    time_point(pt, [&] { graph ? g->launch(s) : enqueue(); }, warmup, samples);
  } catch (const std::exception& e) {
    cudaGetLastError();
    pt.disposition = Disposition::Failed;
    pt.reason = e.what();
  }
  return pt;
}

}  // namespace credit::gpu
