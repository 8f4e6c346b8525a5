#include "runner/ladder_runner.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/workload_registry.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/seed001/ladder.hpp"
#include "runner/sweep_runner.hpp"
#include "io/json_records.hpp"

namespace credit {

namespace {

bool has_point(const ResultsFile& r, const SweepPoint& k) {
  for (const auto& p : r.points)
    if (p.workload == k.workload && p.m == k.m && p.n == k.n && p.schedule == k.schedule && p.p == k.p &&
        p.submission == k.submission && p.variant == k.variant)
      return true;
  return false;
}

class LadderRunner {
 public:
  LadderRunner(const WorkloadInfo& w, long long m, long long n, const DeviceInfo& dev, const SweepConfig& cfg,
               std::uint64_t seed, ResultsFile& out, const std::string& path, const Log& log)
      : w_(w), m_(m), n_(n), dev_(dev), cfg_(cfg), seed_(seed), out_(out), path_(path), log_(log) {}

  void run() {
    for (bool graph : {false, true}) {
      for (auto s : {gpu::Schedule::Unfused, gpu::Schedule::LocalFusion, gpu::Schedule::Megakernel})
        for (int p : cfg_.splits) rung({s, p, graph, {}});
      for (auto s : {gpu::Schedule::Cluster, gpu::Schedule::ClusterRegisters})
        for (int p : cfg_.cluster_sizes) rung({s, p, graph, {}});
      floor(gpu::Floor::EmptyKernel, graph);
      floor(gpu::Floor::Copy, graph);
    }
    if (std::find(cfg_.switch_rows.begin(), cfg_.switch_rows.end(), m_) == cfg_.switch_rows.end()) return;
    // Fig. 6: the switches in one compiled megakernel at the P the ladder's megakernel rung chose.
    const SweepPoint* best = nullptr;
    for (const auto& p : out_.points)
      if (p.workload == w_.name && p.m == m_ && p.n == n_ && p.schedule == "megakernel" && p.submission == "graph" &&
          p.variant == "auto" && p.disposition == Disposition::Passed && (!best || p.time_ms.median < best->time_ms.median))
        best = &p;
    if (!best) return log_.warn("{} {}x{}: no passed megakernel, no Fig. 6 switches", w_.name, m_, n_);
    const int p = best->p;
    for (auto barrier : {gpu::MegakernelBarrier::Grid, gpu::MegakernelBarrier::Row})
      for (unsigned sw : {0u, unsigned(kReloadInputs), unsigned(kSpillRetained), unsigned(kReloadInputs | kSpillRetained)})
        rung({gpu::Schedule::Megakernel, p, true, {barrier, sw}});
  }

 private:
  gpu::LadderShape& shape() {
    if (!shape_) shape_.emplace(w_, m_, n_, dev_, seed_);
    return *shape_;
  }
  SweepPoint key(const std::string& schedule, int p, bool graph, const std::string& variant) const {
    SweepPoint k;
    k.workload = w_.name;
    k.m = m_;
    k.n = n_;
    k.schedule = schedule;
    k.p = p;
    k.submission = graph ? "graph" : "direct";
    k.variant = variant;
    return k;
  }
  void record(SweepPoint pt) {
    log_.info("{} {}x{} {} P={} {} {}: {} {:.2f} us (GPU {:.2f} us){}", pt.workload, pt.m, pt.n, pt.schedule, pt.p,
                 pt.submission, pt.variant, pt.disposition == Disposition::Passed ? "passed" : "NOT passed",
                 pt.time_ms.median * 1e3, pt.gpu_time_ms.median * 1e3, pt.reason.empty() ? "" : " - " + pt.reason);
    out_.points.push_back(std::move(pt));
    write_results(path_, out_);
  }
  void rung(const gpu::Rung& r) {
    if (has_point(out_, key(gpu::schedule_name(r.schedule), r.p, r.graph, gpu::variant_name(r)))) return;
    record(shape().measure(r, cfg_.warmup, cfg_.samples));
  }
  void floor(gpu::Floor f, bool graph) {
    if (has_point(out_, key(f == gpu::Floor::Copy ? kCopySchedule : kEmptyKernelSchedule, 1, graph, ""))) return;
    record(shape().measure_floor(f, graph, cfg_.warmup, cfg_.samples));
  }

  const WorkloadInfo& w_;
  long long m_, n_;
  const DeviceInfo& dev_;
  const SweepConfig& cfg_;
  std::uint64_t seed_;
  ResultsFile& out_;
  const std::string& path_;
  const Log& log_;
  std::optional<gpu::LadderShape> shape_;  // allocated only when something is measured
};

}  // namespace

ResultsFile run_ladder(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                       std::uint64_t seed, int device, const Meta& meta, const Log& log) {
  if (cfg.splits.empty()) throw std::invalid_argument("config '" + cfg.name + "': splits: the ladder needs CTAs per row");
  const std::vector<const WorkloadInfo*> workloads = sweep_workloads(cfg);
  ResultsFile out;
  if (!resume.empty()) {
    out = read_results(resume);
    if (out.kind != "ladder") throw std::invalid_argument(resume + ": kind: expected a ladder, got " + out.kind);
  }
  const DeviceInfo dev = gpu::use_device(device);
  if (!resume.empty() && out.device.uuid != dev.uuid)
    throw std::invalid_argument(resume + ": device.uuid: measured on " + out.device.uuid + ", this GPU is " + dev.uuid +
                                ": a ladder resumes on the GPU it started on");
  out.kind = "ladder";
  out.meta = meta;
  out.device = dev;
  write_results(path, out);
  log.info("ladder '{}' (host completion) -> {}", cfg.name, path);
  const auto t0 = std::chrono::steady_clock::now();
  size_t done = 0;
  for (const WorkloadInfo* w : workloads)
    for (long long n : cfg.widths) {
      std::vector<long long> ms = cfg.row_counts;
      if (ms.empty()) ms.push_back(rows_for(cfg, w->name, w->default_rows));
      for (long long m : ms) {
        LadderRunner(*w, m, n, dev, cfg, seed + done++, out, path, log).run();
        log.info("{} {}x{} done, {:.0f} s elapsed", w->name, m, n,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    }
  return out;
}

}  // namespace credit
