// credit bench: check and time the baseline and clustered schedules at chosen shapes, beside
// the copy bandwidth measured in the same run. Records are written as they complete.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cli/commands.hpp"
#include "cli/csv_output.hpp"
#include "cli/list_options.hpp"
#include "cli/output_paths.hpp"
#include "cli/traffic_option.hpp"
#include "core/shape.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "credit/schedule.hpp"
#include "gpu/measure/bench.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/phases.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"
#include "io/meta.hpp"
#include "runner/bench_runner.hpp"

namespace credit::cli {

namespace {

std::vector<std::string> candidate_names() {
  std::vector<std::string> v;
  for (const ScheduleTraits& t : schedule_traits())
    if (t.candidate) v.emplace_back(t.name);
  return v;
}

// The schedules whose kernel records a phase timeline (--phases).
std::string phase_schedules() {
  std::string v;
  for (const ScheduleTraits& t : schedule_traits())
    if (t.phase_marks) v += (v.empty() ? "" : ", ") + std::string(t.name);
  return v;
}

struct BenchArgs {
  std::vector<std::string> workloads{"all"};
  std::string widths = "4096,8192,16384,32768,65536,131072,262144";
  long long rows = 0;  // 0: each workload's default M
  bool rows_given = false;
  std::string shape;  // --shape MxN: --rows M --widths N, as predict and tune spell a shape
  std::string csv;  // --csv PATH or - (stdout)
  std::string ps = "2,4,8,16";
  std::vector<std::string> schedules = candidate_names();  // every schedule the time model predicts
  int samples = 20, warmup = 3;
  std::uint64_t seed = 20261129;
  bool phases = false;
  bool traffic = false;
  std::string dtype = "f32";
  bool ps_given = false;  // --P on the command line
};

// The workloads named, each in element type t (a negative control is f32 only: an error in another type).
std::vector<const WorkloadInfo*> chosen_workloads(const std::vector<std::string>& names, ElementType t) {
  std::vector<const WorkloadInfo*> v;
  for (const auto& n : names) {
    if (n == "all") {
      for (const auto& w : all_workloads()) v.push_back(&in_type(w, t));
    } else if (n == "controls") {
      for (const auto& w : negative_controls()) v.push_back(&in_type(w, t));
    } else {
      const WorkloadInfo& w = find_workload(n);
      v.push_back(t == ElementType::F32 ? &w : &in_type(w, t));
    }
  }
  return v;
}

// The table's first columns, as wide as the longest workload name, M and N the run has (its rows are printed as
// they complete, so the widths are set before).
struct PointColumns {
  std::size_t workload = 12, m = 6, n = 7, schedule = 17;
};

PointColumns point_columns(const std::vector<const WorkloadInfo*>& workloads, long long rows,
                           const std::vector<int>& widths) {
  PointColumns c;
  for (const WorkloadInfo* w : workloads) {
    c.workload = std::max(c.workload, w->name.size());
    c.m = std::max(c.m, std::to_string(rows > 0 ? rows : w->default_rows).size());
  }
  for (int n : widths) c.n = std::max(c.n, std::to_string(n).size());
  return c;
}

void print_header(std::FILE* out, const PointColumns& c) {
  fmt::print(out, "{:<{}} {:>{}} {:>{}} {:<{}} {:>3} {:>10} {:>9} {:>8}\n", "workload", c.workload, "M", c.m, "N", c.n,
             "schedule", c.schedule, "P", "ms", "GB/s", "%copy");
}

void print_point(std::FILE* out, const PointColumns& c, const SweepPoint& p) {
  if (p.disposition == Disposition::Passed)
    fmt::print(out, "{:<{}} {:>{}} {:>{}} {:<{}} {:>3} {:>10.4f} {:>9.1f} {:>7.1f}%  err {:.1e}\n", p.workload,
               c.workload, p.m, c.m, p.n, c.n, p.schedule, c.schedule, p.p, p.time_ms.median, p.gbps, p.pct_of_copy,
               p.max_rel_l2_error);
  else
    fmt::print(out, "{:<{}} {:>{}} {:>{}} {:<{}} {:>3} {}: {}\n", p.workload, c.workload, p.m, c.m, p.n, c.n, p.schedule,
               c.schedule, p.p, disposition_name(p.disposition), p.reason);
}

void run_bench(const BenchArgs& a, const GlobalOptions& g) {
  prepare_outputs({}, {{"--json", g.json_path}, {"--csv", a.csv}});  // cli/output_paths.hpp, before the GPU
  const ElementType element = element_type_option(a.dtype);
  const auto workloads = chosen_workloads(a.workloads, element);  // bad input fails before the GPU is touched
  const std::optional<Shape> shape = a.shape.empty() ? std::nullopt : std::optional<Shape>(shape_option(a.shape));
  const std::vector<int> widths = shape ? std::vector<int>{int(shape->n)} : parse_int_list(a.widths);
  const long long rows = shape ? shape->m : a.rows;
  for (int n : widths)  // the --shape limit, before the GPU is touched
    if (n > kMaxWidth) throw CommandFailed(fmt::format("--widths: {} is wider than {} elements", n, kMaxWidth), 2);
  const std::vector<int> ps = parse_int_list(a.ps);
  std::vector<gpu::Schedule> schedules;
  for (const auto& s : a.schedules) schedules.push_back(gpu::parse_schedule(s));
  // The clustered schedules take cluster sizes; the global-memory schedules 1..kMaxGlobalSplit, split_global
  // powers of two to kMaxSpreadSplit. Each schedule times the P it takes; a P none of them takes is an error.
  auto any_schedule = [&](auto pred) { return std::any_of(schedules.begin(), schedules.end(), pred); };
  const bool cluster = any_schedule([](gpu::Schedule s) { return traits_of(s).cluster_launch; });
  const bool spread = any_schedule([](gpu::Schedule s) { return traits_of(s).split == Split::Spread; });
  const int most = spread ? std::max(kMaxGlobalSplit, kMaxSpreadSplit) : kMaxGlobalSplit;
  const bool split_chosen = any_schedule([](gpu::Schedule s) { return traits_of(s).split != Split::OneCta; });
  // Options that would change nothing for the schedules chosen are refused, naming them.
  refuse_option(a.ps_given && !split_chosen,
                "--P: none of the schedules chosen splits a row (each runs one CTA per row, P = 1)");
  refuse_option(a.phases && !any_schedule([](gpu::Schedule s) { return traits_of(s).phase_marks; }),
                "--phases: none of the schedules chosen records a phase timeline (" + phase_schedules() + " do)");
  for (int p : ps) {
    const bool taken_unclustered = any_schedule([p](gpu::Schedule s) {
      return !traits_of(s).cluster_launch && traits_of(s).split != Split::OneCta && takes_p(s, p);
    });
    if (cluster && !is_cluster_size(p) && !taken_unclustered)
      throw CommandFailed(fmt::format("illegal cluster size {}: --P takes 2, 4, 8 and 16 "
                                      "(16 is non-portable on Hopper)", p), 2);
    if (p < 1 || p > most)
      throw CommandFailed(fmt::format("illegal split {}: --P takes 1 to {} CTAs per row", p, most), 2);
    if (split_chosen && !any_schedule([p](gpu::Schedule s) { return takes_p(s, p); }))
      throw CommandFailed(fmt::format("illegal split {}: none of the schedules chosen takes {} CTAs per row "
                                      "(split_global: a power of two from 2 to {})", p, p, kMaxSpreadSplit), 2);
  }
  check_timing_counts(a.samples, a.warmup);
  if (a.rows_given && (a.rows < 1 || a.rows > kMaxRows))
    throw CommandFailed(fmt::format("--rows: expected a positive number of rows up to 2^31 - 1, got {}", a.rows), 2);
  CsvOutput csv(a.csv);  // with "-", the table goes to stderr and stdout carries the CSV only
  std::optional<traffic::ProfilerSetup> profiler;
  if (a.traffic) profiler = traffic_setup(g, a.seed);  // no ncu: exit 3 before the GPU is touched

  const DeviceInfo dev = gpu::use_device(g.device);
  BenchPlan plan{workloads, widths, rows, schedules, ps, gpu::TimingOptions{a.warmup, a.samples, true}, a.seed,
                 a.phases};
  if (const std::string why = bench_plan_problem(plan, dev); !why.empty())  // exit 2 before any timing
    throw CommandFailed(why + ": choose a smaller --rows or --widths", 2);
  if (profiler) check_profiler(*profiler);  // no permission: exit 3 before the timing

  gpu::Timer timer(dev);
  ResultsFile out;
  out.kind = "sweep";
  out.meta = meta_of(g);
  out.device = dev;
  const gpu::CopyBandwidth copy = gpu::measure_copy_bandwidth(timer);
  out.copy_gbps = copy.best();
  std::FILE* table = csv.table_stream();
  fmt::print(table, "{} ({} SMs, {} KB smem/block): copy {:.0f} GB/s (memcpy {:.0f}, kernel {:.0f}; read+write)\n",
             dev.name, dev.sm_count, dev.smem_per_block_optin / 1024, copy.best(), copy.memcpy_gbps,
             copy.kernel_gbps);
  const PointColumns columns = point_columns(workloads, rows, widths);
  print_header(table, columns);
  const auto t0 = std::chrono::steady_clock::now();
  BenchObserver observe;
  observe.point = [&](const SweepPoint& p) {
    print_point(table, columns, p);
    if (rewritable_output(g.json_path)) write_results(g.json_path, out);  // nothing measured is lost
  };
  observe.phases = [&](const std::vector<gpu::PhaseMark>& marks) {
    for (const auto& mk : marks)
      fmt::print(table, "    {:<22} median {:>7.2f} us  last {:>7.2f} us   a CTA's step: median {:>7.2f} us  p90 {:>7.2f} us\n",
                 mk.name, mk.median_us, mk.max_us, mk.step_median_us, mk.step_p90_us);
  };
  observe.shape_done = [&](std::size_t done, std::size_t total, const WorkloadInfo& w, int n) {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    spdlog::info("[{}/{}] {} N={} done, {:.0f}s elapsed, ETA {:.0f}s", done, total, w.name, n, el,
                 el / double(done) * double(total - done));
  };
  ::credit::run_bench(plan, dev, timer, out, observe);
  if (profiler) measure_traffic(out.points, *profiler, table);
  if (!g.json_path.empty()) write_results_output(g.json_path, out);  // the one write to stdout, a FIFO or a device
  csv.write(points_csv(out.points));
  if (const std::size_t bad = failed_points(out))
    throw CommandFailed(fmt::format("{} point(s) were incorrect or failed", bad), 1);
}

}  // namespace

void add_bench_command(CLI::App& app, GlobalOptions& g) {
  static BenchArgs a;
  auto* cmd = app.add_subcommand("bench", "check, then time, each schedule at each width (needs a GPU)");
  add_name_list_option(cmd, "--workload", a.workloads,
                       "workload names, all (every declared workload: credit list) or controls (the negative controls)")->capture_default_str();
  auto* widths = add_int_list_option(cmd, "--widths", a.widths, kWidthsHelp, "4096,65536");
  auto* rows = cmd->add_option("--rows", a.rows, "rows M (default: each workload's own)")
                   ->each([](const std::string&) { a.rows_given = true; });
  cmd->add_option("--shape", a.shape, "one shape MxN, e.g. 16x131072, as predict and tune take it (--rows M --widths N)")
      ->excludes(widths)
      ->excludes(rows);
  add_csv_option(cmd, a.csv);
  add_int_list_option(cmd, "--P", a.ps,
                      "CTAs per row: cluster sizes (cluster; partial and partial_one run as 16), 1 to 64 (megakernel, "
                      "local_fusion, unfused), powers of two to 128 (split_global)",
                      "2,4,8,16");
  add_name_list_option(cmd, "--schedule", a.schedules, known_schedules())
      ->capture_default_str();
  cmd->add_option("--samples", a.samples, "timed samples per point (median reported)")->capture_default_str();
  cmd->add_option("--warmup", a.warmup, "untimed runs first")->capture_default_str();
  cmd->add_option("--seed", a.seed, "input seed")->check(kNonNegativeInteger)->capture_default_str();
  cmd->add_option("--dtype", a.dtype, "element type of the row tensors: f32, bf16 or f16")->capture_default_str();
  cmd->add_flag("--phases", a.phases, "also print each split-row point's phase timeline (CTA timestamps, warm)");
  cmd->add_flag("--traffic", a.traffic,
                "also measure each passed kernel's DRAM bytes read and written (Nsight Compute, L2 emptied first), "
                "beside the model's; needs ncu with permission for the GPU's counters");
  cmd->callback([cmd, &g] {
    a.ps_given = cmd->get_option("--P")->count() > 0;
    run_bench(a, g);
  });
}

}  // namespace credit::cli
