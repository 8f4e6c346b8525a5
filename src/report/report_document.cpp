#include "report/report_document.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"
#include "report/cells.hpp"
#include "report/report_lead.hpp"
#include "report/report_stats.hpp"
#include "report/report_tables.hpp"
#include "report/report_traffic.hpp"
#include "sweep/model_selection.hpp"

namespace credit::report {

namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

Section inputs_section(const ReportData& d) {
  Section s{"inputs", "Inputs", 2, {}};
  Table files;
  files.header = {"file", "kind", "device", "measured (UTC)", "git sha", "copy GB/s", "points", "predictions",
                  "calibration"};
  files.numeric = {false, false, false, false, false, true, true, true, false};
  for (const auto& in : d.inputs)
    files.rows.push_back({in.path, in.kind, d.devices[std::size_t(in.device)].tag, in.utc_time, in.git_sha,
                          in.copy_gbps > 0 ? cells::fixed(in.copy_gbps, 0) : cells::kNone,
                          std::to_string(in.points), std::to_string(in.predictions),
                          in.has_calibration ? "yes" : "no"});
  s.blocks.push_back(std::move(files));
  Table devices;
  // cudaDriverGetVersion and cudaRuntimeGetVersion give CUDA versions as 1000 major + 10 minor:
  // the newest CUDA the driver supports, and the runtime the tool was built with.
  const auto cuda_version = [](int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, v % 1000 / 10) : cells::kNone; };
  devices.header = {"device", "GPU", "uuid", "CC", "SMs", "SM clock MHz", "smem/block KiB", "CUDA driver", "CUDA runtime"};
  devices.numeric = {false, false, false, false, true, true, true, true, true};
  for (const auto& dev : d.devices) {
    const DeviceInfo& i = dev.info;
    devices.rows.push_back({dev.tag, i.name, i.uuid, fmt::format("{}.{}", i.cc_major, i.cc_minor),
                            std::to_string(i.sm_count), std::to_string(i.sm_clock_khz / 1000),
                            std::to_string(i.smem_per_block_optin / 1024), cuda_version(i.driver_version),
                            cuda_version(i.runtime_version)});
  }
  s.blocks.push_back(std::move(devices));
  if (d.devices.size() > 1)
    s.blocks.push_back(Paragraph{
        "Several GPUs: each is reported on its own, under its tag; only framework baselines are joined across "
        "GPUs, and only between GPUs of the same name when the CUDA sweep's own GPU has none (said where it "
        "happens)."});
  if (!d.notes.empty()) s.blocks.push_back(Bullets{d.notes});
  return s;
}

std::string comparison_summary(const ReportData& d, const Comparison& c) {
  const Device& dev = d.devices[std::size_t(c.device)];
  const auto ns = widths(c);
  auto against = [&](std::string_view key) {
    std::vector<double> v;
    int wins = 0;
    for (const auto& s : c.shapes)
      if (const auto x = speedup(s, key)) {
        v.push_back(*x);
        wins += *x > 1;
      }
    return fmt::format("{} at {} shapes{} (geomean speedup {})",
                       key == kBest ? "the fastest baseline" : "the CUDA baseline", cells::ratio(wins, int(v.size())),
                       key == kBest ? " where a framework baseline was measured too" : "",
                       cells::speedup(geomean(v)));
  };
  std::string out = fmt::format("{} {}: {} shapes, {} workloads, N = {} ... {}. CREDIT (best clustered P) beats {}",
                                dev.tag, dev.label, c.shapes.size(), c.summary.workloads.size(), ns.front(), ns.back(),
                                against(kCuda.key));
  out += c.frameworks.empty() ? "; torch.compile, Triton and PyTorch eager were not measured."
                              : "; " + against(kBest) + ".";
  for (const auto& v : c.variants) {
    const Confusion m = confusion(c, v);
    const auto it = c.summary.exact_n_star.find(v);
    out += fmt::format(" Model {}: {} right ({}), N* exact for {} workloads.", v, cells::ratio(m.right(), m.total()),
                       cells::percent(m.right(), m.total()),
                       cells::ratio(it == c.summary.exact_n_star.end() ? 0 : it->second,
                                    int(c.summary.workloads.size())));
  }
  return out;
}

Section summary_section(const ReportData& d) {
  Section s{"summary", "Summary", 2, {}};
  Bullets b;
  for (const auto& c : d.comparisons) b.items.push_back(comparison_summary(d, c));
  if (b.items.empty()) b.items.push_back("No sweep with predictions was given: nothing to compare.");
  s.blocks.push_back(std::move(b));
  return s;
}

// "staged: 32768, 65536; cluster P=2: 65536": the points of one not-supported group, compactly.
std::string point_list(const std::map<std::pair<std::string, int>, std::set<long long>>& by_schedule) {
  std::string out;
  for (const auto& [sp, ns] : by_schedule) {
    out += out.empty() ? "" : "; ";
    out += sp.first == "cluster" || sp.second > 1 ? fmt::format("{} P={}:", sp.first, sp.second) : sp.first + ":";
    for (long long n : ns) out += fmt::format(" {}{}", n, n == *ns.rbegin() ? "" : ",");
  }
  return out;
}

// Selection regret (the time model beside the paper's variants) on every sweep that can say it.
Section selection_section(const ReportData& d) {
  Section s{"selection", "Selection: what each model's pick costs", 2, {}};
  s.blocks.push_back(Paragraph{
      "Regret = T(the candidate a model picks) / T(the fastest measured candidate: staged, global_reread, "
      "registers or a cluster P) - 1. The time model uses the given fitted calibration (credit fit-model) when "
      "there is one, else the sweep's own with the built-in H200 constants. Accuracy: the pick says "
      "'cluster' exactly where the fastest cluster beats the faster one-CTA kernel; 'outside noise' leaves out shapes whose two timing passes disagree on that. N*: per "
      "workload and M, the smallest width where a cluster wins, exact or not; 'N* all M': workloads whose N* is exact at "
      "every M of the sweep. 'tuned': the time model's shortlist "
      "timed at the shape and the fastest kept (credit tune), chosen by the sweep's second timing pass where it has one."});
  Table t;
  t.header = {"file", "model", "shapes", "regret geomean", "regret max", "> 5%", "accuracy", "outside noise",
              "N* exact", "N* all M"};
  t.numeric = {false, false, true, true, true, true, true, true, true, true};
  auto frac = [](int a, int b) { return b ? fmt::format("{}/{} ({:.1f}%)", a, b, 100.0 * a / b) : std::string("-"); };
  for (const auto& sel : d.selections)
    for (const auto& [variant, st] : sel.stats)
      t.rows.push_back({std::filesystem::path(sel.path).filename().string(), variant, std::to_string(st.shapes),
                        fmt::format("{:.2f}%", 100 * st.geomean_regret), fmt::format("{:.1f}%", 100 * st.max_regret),
                        std::to_string(st.over_5pct), frac(st.right, st.judged),
                        frac(st.right_outside, st.judged_outside),
                        fmt::format("{}/{}", st.n_star_exact, st.n_star_groups),
                        fmt::format("{}/{}", st.n_star_workloads_exact, st.n_star_workloads)});
  if (t.rows.empty()) {
    s.blocks.push_back(Paragraph{"No sweep carries a calibration with the time model's inputs: nothing to judge."});
    return s;
  }
  s.blocks.push_back(std::move(t));
  for (const auto& sel : d.selections)
    if (const std::string misses = format_misses_by_margin(sel.stats); !misses.empty())
      s.blocks.push_back(Paragraph{std::filesystem::path(sel.path).filename().string() + ": " + misses});
  return s;
}

Section problems_section(const ReportData& d) {
  Section s{"problems", "Points that did not pass", 2, {}};
  Table each;
  each.header = {"device", "file", "workload", "M", "N", "schedule", "P", "disposition", "reason"};
  each.numeric = {false, false, false, true, true, false, true, false, false};
  // not_supported ones are many and alike: one row per device, workload and reason (numbers masked).
  struct Group {
    std::string device, workload, reason;
    std::map<std::pair<std::string, int>, std::set<long long>> points;  // (schedule, P) -> N
    std::size_t count = 0;
  };
  std::vector<Group> groups;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  const std::regex digits("[0-9]+");
  for (const auto& pr : d.problems) {
    const SweepPoint& p = pr.point;
    const std::string tag = d.devices[std::size_t(pr.device)].tag;
    if (p.disposition != Disposition::NotSupported) {
      each.rows.push_back({tag, file_name(pr.source), p.workload, std::to_string(p.m), std::to_string(p.n), p.schedule,
                           std::to_string(p.p), disposition_name(p.disposition), p.reason});
      continue;
    }
    const auto key = std::make_tuple(tag, p.workload, std::regex_replace(p.reason, digits, "#"));
    auto [it, fresh] = index.emplace(key, groups.size());
    if (fresh) groups.push_back({tag, p.workload, p.reason, {}, 0});
    groups[it->second].points[{p.schedule, p.p}].insert(p.n);
    ++groups[it->second].count;
  }
  if (d.problems.empty()) s.blocks.push_back(Paragraph{"Every point passed."});
  if (!each.rows.empty()) {
    s.blocks.push_back(Paragraph{"Incorrect, failed and skipped points, one by one:"});
    s.blocks.push_back(std::move(each));
  }
  if (!groups.empty()) {
    s.blocks.push_back(Paragraph{
        "Not supported (the schedule cannot run the shape, e.g. Eq. 3: the slice does not fit one CTA's shared "
        "memory), by workload and reason:"});
    Table ns;
    ns.header = {"device", "workload", "count", "points (schedule: N)", "reason (first point)"};
    ns.numeric = {false, false, true, false, false};
    for (const auto& g : groups)
      ns.rows.push_back({g.device, g.workload, std::to_string(g.count), point_list(g.points), g.reason});
    s.blocks.push_back(std::move(ns));
  }
  return s;
}

}  // namespace

Document build_document(const ReportData& d, const std::string& made_by) {
  Document doc;
  doc.title = "credit report";
  Section intro{"about", "", 0, {}};
  intro.blocks.push_back(Paragraph{fmt::format(
      "Made by {} from {} file(s). CREDIT splits each row across the CTAs of a thread-block cluster and exchanges "
      "row statistics through distributed shared memory; the tables follow the paper's (Table II, Fig. 3, "
      "Table IV, Table V, Fig. 4), recomputed from the measurements.",
      made_by, d.inputs.size())});
  doc.sections.push_back(std::move(intro));
  doc.sections.push_back(lead_section(d));
  doc.sections.push_back(summary_section(d));
  doc.sections.push_back(inputs_section(d));
  doc.sections.push_back(calibration_section(d));
  for (std::size_t k = 0; k < d.comparisons.size(); ++k) {
    doc.sections.push_back(speedup_section(d, k));
    doc.sections.push_back(geomean_section(d, k));
  }
  doc.sections.push_back(prediction_section(d));
  doc.sections.push_back(selection_section(d));
  for (std::size_t k = 0; k < d.comparisons.size(); ++k) doc.sections.push_back(crossover_section(d, k));
  for (std::size_t k = 0; k < d.comparisons.size(); ++k) doc.sections.push_back(bandwidth_section(d, k));
  if (!d.traffic.empty()) doc.sections.push_back(traffic_section(d));
  doc.sections.push_back(problems_section(d));
  return doc;
}

}  // namespace credit::report
