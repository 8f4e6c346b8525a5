#include "cli/ladder_sweep.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/workload_registry.hpp"
#include "gpu/device_query.hpp"
#include "gpu/ladder.hpp"
#include "io/json_records.hpp"
#include "sweep/ladder_summary.hpp"

namespace credit::cli {

namespace {

// Seed 001's H100 figures (configs/reference/seed001-h100.json), printed beside ours: found
// through $CREDIT_REFERENCE_FILE, else beside an installed binary (../share/credit/reference), else in
// the source tree this binary was built from. None found: the column stays empty, with a warning.
struct NoteFigures {
  std::string workload;
  long long m = 0, n = 0;
  std::vector<std::pair<std::string, double>> rungs_us, fig6_us;
};

std::optional<std::filesystem::path> reference_file() {
  namespace fs = std::filesystem;
  const fs::path name = fs::path("reference") / "seed001-h100.json";
  if (const char* env = std::getenv("CREDIT_REFERENCE_FILE"); env && *env) return fs::path(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "credit" / name;
    if (fs::is_regular_file(installed, ec)) return installed;
  }
  const fs::path source = fs::path(CREDIT_SOURCE_DIR) / "configs" / name;
  if (fs::is_regular_file(source, ec)) return source;
  return std::nullopt;
}

NoteFigures load_note_figures() {
  NoteFigures f;
  const auto path = reference_file();
  if (!path) {
    spdlog::warn("reference/seed001-h100.json not found: the H100 (note) column is left empty");
    return f;
  }
  std::ifstream in(*path);
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    f.workload = j.at("workload").get<std::string>();
    f.m = j.at("m").get<long long>();
    f.n = j.at("n").get<long long>();
    for (const auto& [k, v] : j.at("rungs_us").items()) f.rungs_us.emplace_back(k, v.get<double>());
    for (const auto& [k, v] : j.at("fig6_grid_barrier_extra_us").items()) f.fig6_us.emplace_back(k, v.get<double>());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path->string() + ": " + e.what());
  }
  return f;
}

bool is_note_shape(const NoteFigures& f, const LadderShapeSummary& s) {
  return s.workload == f.workload && s.m == f.m && s.n == f.n;
}

std::optional<double> note_us(const NoteFigures& f, const LadderShapeSummary& s, const char* label) {
  if (!is_note_shape(f, s)) return std::nullopt;
  for (const auto& [name, us] : f.rungs_us)
    if (name == label) return us;
  return std::nullopt;
}

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
               std::uint64_t seed, ResultsFile& out, const std::string& path)
      : w_(w), m_(m), n_(n), dev_(dev), cfg_(cfg), seed_(seed), out_(out), path_(path) {}

  void run() {
    for (bool graph : {false, true}) {
      for (auto s : {gpu::Schedule::Unfused, gpu::Schedule::LocalFusion, gpu::Schedule::Megakernel})
        for (int p : cfg_.splits) rung({s, p, graph, {}});
      for (int p : cfg_.cluster_sizes) rung({gpu::Schedule::Cluster, p, graph, {}});
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
    if (!best) return spdlog::warn("{} {}x{}: no passed megakernel, no Fig. 6 switches", w_.name, m_, n_);
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
    spdlog::info("{} {}x{} {} P={} {} {}: {} {:.2f} us (GPU {:.2f} us){}", pt.workload, pt.m, pt.n, pt.schedule, pt.p,
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
  std::optional<gpu::LadderShape> shape_;  // allocated only when something is measured
};

std::string us(double ms) { return fmt::format("{:.1f}", ms * 1e3); }

}  // namespace

void print_ladder_summary(const ResultsFile& r) {
  const NoteFigures note = load_note_figures();
  for (const auto& s : summarize_ladder(r)) {
    fmt::print("\n{} M={} N={}: host completion (submission until stream sync returns), median us\n", s.workload,
               s.m, s.n);
    fmt::print("{:<30} {:>4} {:>9} {:>8} {:>7} {:>12}\n", "rung", "P", "host us", "GPU us", "passed", "H100 (note)");
    for (const auto& rr : s.rungs) {
      if (rr.total == 0) continue;
      const auto note_fig = note_us(note, s, rr.def->label);
      fmt::print("{:<30} {:>4} {:>9} {:>8} {:>7} {:>12}\n", rr.def->label, rr.best ? std::to_string(rr.best->p) : "-",
                 rr.best ? us(rr.best->time_ms.median) : "-", rr.best ? us(rr.best->gpu_time_ms.median) : "-",
                 fmt::format("{}/{}", rr.passed, rr.total), note_fig ? fmt::format("{:.1f}", *note_fig) : "");
      for (const auto& f : rr.failures) fmt::print("    {}\n", f);
    }
    for (const auto& [name, p] : s.floors)
      fmt::print("{:<30} {:>4} {:>9} {:>8}\n", "floor: " + name, "", us(p->time_ms.median), us(p->gpu_time_ms.median));
    if (s.best)
      fmt::print("best: {} P={} {} {}: {} us\n", s.best->schedule, s.best->p, s.best->submission, s.best->variant,
                 us(s.best->time_ms.median));
    for (const auto& sp : s.switches) {
      fmt::print("Fig. 6 ({} barrier, P={}, {}): base {} us", sp.barrier, sp.p, sp.submission, us(sp.base_ms));
      for (const auto& [name, extra] : sp.extra_ms) fmt::print(", +{} {:+.2f} us", name, extra * 1e3);
      fmt::print("\n");
    }
    if (!s.switches.empty() && is_note_shape(note, s) && !note.fig6_us.empty()) {
      fmt::print("Fig. 6 (note, H100, grid barrier):");
      for (std::size_t i = 0; i < note.fig6_us.size(); ++i)
        fmt::print("{} +{} {:+.2f} us", i ? "," : "", note.fig6_us[i].first, note.fig6_us[i].second);
      fmt::print("\n");
    }
  }
}

void run_ladder_sweep(const SweepConfig& cfg, const std::string& resume, const std::string& path,
                      std::uint64_t seed, const GlobalOptions& g) {
  if (cfg.splits.empty()) throw CommandFailed("config '" + cfg.name + "': splits: the ladder needs CTAs per row", 2);
  std::vector<const WorkloadInfo*> workloads;
  if (cfg.workloads.empty())
    for (const auto& w : all_workloads()) workloads.push_back(&w);
  else
    for (const auto& n : cfg.workloads) workloads.push_back(&find_workload(n));
  ResultsFile out;
  if (!resume.empty()) {
    out = read_results(resume);
    if (out.kind != "ladder") throw CommandFailed(resume + ": kind: expected a ladder, got " + out.kind, 2);
  }
  const DeviceInfo dev = gpu::use_device(g.device);
  if (!resume.empty() && out.device.uuid != dev.uuid)
    throw CommandFailed(resume + ": device.uuid: measured on " + out.device.uuid + ", this GPU is " + dev.uuid +
                        ": a ladder resumes on the GPU it started on", 2);
  out.kind = "ladder";
  out.meta = meta_of(g);
  out.device = dev;
  write_results(path, out);
  spdlog::info("ladder '{}' (host completion) -> {}", cfg.name, path);
  const auto t0 = std::chrono::steady_clock::now();
  size_t done = 0;
  for (const WorkloadInfo* w : workloads)
    for (long long n : cfg.widths) {
      std::vector<long long> ms = cfg.row_counts;
      if (ms.empty()) ms.push_back(rows_for(cfg, w->name, w->default_rows));
      for (long long m : ms) {
        LadderRunner(*w, m, n, dev, cfg, seed + done++, out, path).run();
        spdlog::info("{} {}x{} done, {:.0f} s elapsed", w->name, m, n,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    }
  print_ladder_summary(out);
  size_t bad = 0;
  for (const auto& p : out.points) bad += p.disposition == Disposition::Incorrect || p.disposition == Disposition::Failed;
  if (bad) throw CommandFailed(fmt::format("{} point(s) were incorrect or failed (see {})", bad, path), 1);
}

}  // namespace credit::cli
