#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/element_type.hpp"
#include "gpu/measure/bench.hpp"
#include "gpu/device/cuda_check.hpp"

namespace credit::gpu {

namespace {

std::vector<long long> sample_rows(long long rows, std::uint64_t seed) {
  std::vector<long long> r{0, rows - 1};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 6; ++i) r.push_back(static_cast<long long>(rng() % std::uint64_t(rows)));
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

double rel_l2(const float* got, const float* want, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(got[i])) return INFINITY;
    const double d = double(got[i]) - double(want[i]);
    num += d * d;
    den += double(want[i]) * double(want[i]);
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

double l2_norm(const float* v, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += double(v[i]) * double(v[i]);
  return std::sqrt(s);
}

}  // namespace

CheckResult check_schedule(DeviceProblem& prob, Schedule s, int p, const DeviceInfo& dev,
                           cudaStream_t stream, std::uint64_t seed) {
  return check_outputs(
      prob, [&] { prob.workspace().launch(prob.workload(), s, p, prob.operands(), dev, stream); }, stream,
      sample_rows(prob.operands().rows, seed));
}

CheckResult check_outputs(DeviceProblem& prob, const std::function<void()>& run, cudaStream_t stream,
                          const std::vector<long long>& rows) {
  const WorkloadInfo& w = prob.workload();
  prob.poison_outputs();
  run();
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  CheckResult res;
  if (const long long left = prob.count_poisoned())
    return {false, std::to_string(left) + " output elements were never written", 0};

  DeviceProblem::HostRows got = prob.download_rows(rows);
  DeviceProblem::HostRows want = got;  // same inputs; outputs recomputed on the CPU
  for (size_t k = 0; k < want.in.size(); ++k) want.operands.in[k] = want.in[k].data();
  for (size_t k = 0; k < want.col.size(); ++k) want.operands.col[k] = want.col[k].data();
  for (size_t k = 0; k < want.row_in.size(); ++k) want.operands.row_in[k] = want.row_in[k].data();
  for (size_t k = 0; k < want.out.size(); ++k) want.operands.out[k] = want.out[k].data();
  for (size_t k = 0; k < want.row_out.size(); ++k) want.operands.row_out[k] = want.row_out[k].data();
  w.cpu_split(want.operands, 1);

  const size_t elems = size_t(got.operands.rows) * size_t(got.operands.n);
  // Each output against its own tolerance: per-element outputs stored in the workload's element type carry its
  // rounding (output_tolerance, core/element_type.hpp); per-row scalars stay fp32.
  std::string worst;
  auto judge = [&](double e, double tolerance, const std::string& name) {
    res.max_rel_l2_error = std::max(res.max_rel_l2_error, e);
    if (!(e <= tolerance) && worst.empty())
      worst = name + ": relative L2 error " + std::to_string(e) + " > " + std::to_string(tolerance);
  };
  for (size_t k = 0; k < w.outputs.size(); ++k) {
    if (w.outputs[k].type == OutType::I8) {
      const auto* a = reinterpret_cast<const signed char*>(got.out[k].data());
      const auto* b = reinterpret_cast<const signed char*>(want.out[k].data());
      size_t bad = 0;
      for (size_t i = 0; i < elems; ++i) bad += a[i] != b[i];
      if (bad) return {false, std::to_string(bad) + " int8 elements of " + w.outputs[k].name +
                                  " differ from the float32 CPU result", 0};
    } else {
      const auto* a = reinterpret_cast<const float*>(got.out[k].data());
      const auto* b = reinterpret_cast<const float*>(want.out[k].data());
      judge(rel_l2(a, b, elems), output_tolerance(w.element(), l2_norm(b, elems), double(elems)), w.outputs[k].name);
    }
  }
  for (size_t k = 0; k < w.row_outputs.size(); ++k)
    judge(rel_l2(got.row_out[k].data(), want.row_out[k].data(), got.row_out[k].size()),
          output_tolerance(ElementType::F32), w.row_outputs[k]);
  res.ok = worst.empty();
  res.reason = worst;
  return res;
}

double compulsory_bytes(const WorkloadInfo& w, long long rows, long long n) {
  return double(rows) * w.figures.d_fixed(double(n));
}

double schedule_traffic_bytes(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                              const DeviceInfo& dev) {
  double reread = s == Schedule::GlobalReread ? double(n) : 0.0;  // elements read again per row
  if (traits_of(s).partial_ctas > 0) reread = double(partial_streamed_elems(n, p, partial_keep(w, s, dev)));
  return double(rows) * (w.figures.d_fixed(double(n)) + reread * w.figures.b_reread);
}

namespace {

// The point's identity and the bytes the static figures give it.
SweepPoint point_of(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev) {
  SweepPoint pt;
  pt.workload = w.name;
  pt.m = rows;
  pt.n = n;
  pt.schedule = schedule_name(s);
  pt.p = p;
  pt.compulsory_bytes = compulsory_bytes(w, rows, n);
  pt.traffic_bytes = schedule_traffic_bytes(w, s, p, rows, n, dev);
  return pt;
}

}  // namespace

SweepPoint refused_point(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev) {
  SweepPoint pt = point_of(w, s, p, rows, n, dev);
  const Support sup = can_implement(w, s, p, rows, n, dev);
  if (sup.ok) throw std::logic_error(w.name + " " + schedule_name(s) + ": refused_point of a point that can run");
  pt.disposition = Disposition::NotSupported;
  pt.reason = sup.reason;
  return pt;
}

SweepPoint bench_point(DeviceProblem& prob, Schedule s, int p, const DeviceInfo& dev, Timer& timer,
                       const TimingOptions& opt, double copy_gbps, std::uint64_t seed) {
  const WorkloadInfo& w = prob.workload();
  const RowOperands& op = prob.operands();
  if (!can_implement(w, s, p, op.rows, op.n, dev).ok) return refused_point(w, s, p, op.rows, op.n, dev);
  SweepPoint pt = point_of(w, s, p, op.rows, op.n, dev);
  // A CUDA error in the check or the timing is recorded as a failed point, not thrown: the
  // sweep goes on (a sticky error then fails the following points too, each with its reason).
  try {
    const CheckResult chk = check_schedule(prob, s, p, dev, timer.stream(), seed);
    pt.max_rel_l2_error = chk.max_rel_l2_error;
    if (!chk.ok) {
      pt.disposition = Disposition::Incorrect;
      pt.reason = chk.reason;
      return pt;
    }
    pt.time_ms = timer.time([&] { prob.workspace().launch(w, s, p, op, dev, timer.stream()); }, opt);
  } catch (const CudaError& e) {
    pt.disposition = Disposition::Failed;
    pt.reason = e.what();
    cudaGetLastError();  // clear a non-sticky error so that later points can run
    return pt;
  }
  if (traits_of(s).candidate)  // one kernel each: its resident rows
    pt.resident_rows = max_active_clusters(w, s, p, op.n, dev);  // clusters, or CTAs = rows
  pt.gbps = pt.compulsory_bytes / (pt.time_ms.median * 1e6);
  pt.pct_of_copy = copy_gbps > 0 ? 100.0 * pt.gbps / copy_gbps : 0;
  pt.disposition = Disposition::Passed;
  return pt;
}

}  // namespace credit::gpu
