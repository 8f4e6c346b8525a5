#include "report/report_traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/workload_registry.hpp"
#include "report/cells.hpp"
#include "sweep/selection.hpp"

namespace credit::report {

namespace {

const char* const kBaselineSeries = "one-CTA baseline";
const char* const kClusterSeries = "clustered (fastest P)";
const char* const kFloorSeries = "compulsory floor";

std::string kernel_name(const TrafficKernel& k) {
  return candidate_label(k.schedule, k.p);
}

std::string bpe(double v) { return cells::fixed(v, 2); }

}  // namespace

std::vector<TrafficShape> traffic_shapes(const std::vector<SweepPoint>& points, int device) {
  std::vector<std::string> order;  // workloads in order of first appearance
  std::map<std::tuple<std::size_t, long long, long long>, TrafficShape> by_shape;
  for (const auto& p : points) {
    if (!p.dram || p.disposition != Disposition::Passed) continue;
    auto w = std::find(order.begin(), order.end(), p.workload);
    if (w == order.end()) w = order.insert(order.end(), p.workload);
    const auto key = std::make_tuple(std::size_t(w - order.begin()), p.m, p.n);
    auto [it, fresh] = by_shape.try_emplace(key);
    TrafficShape& s = it->second;
    const TrafficKernel k{p.schedule, p.p, p.time_ms.median, dram::per_element(p)};
    if (fresh) {
      s.device = device;
      s.workload = p.workload;
      s.m = p.m;
      s.n = p.n;
      s.compulsory = k.bytes.compulsory;
      s.b_reread = find_workload(p.workload).figures.b_reread;
    }
    s.kernels.push_back(k);
    // The paper's CUDA baseline is staged where the row fits one CTA, else global-reread.
    if (p.schedule == "staged" || (p.schedule == "global_reread" && (!s.baseline || s.baseline->schedule != "staged")))
      s.baseline = k;
    if (p.schedule == "cluster" && (!s.cluster || k.ms < s.cluster->ms)) s.cluster = k;
  }
  std::vector<TrafficShape> out;
  for (auto& [key, s] : by_shape) out.push_back(std::move(s));
  return out;
}

Section traffic_section(const ReportData& d) {
  Section s{"fig5", "Fig. 5: DRAM bytes per element, measured", 2, {}};
  s.blocks.push_back(Paragraph{fmt::format(
      "DRAM bytes read plus written per element of the M x N input, measured by Nsight Compute "
      "(dram__bytes_read.sum + dram__bytes_write.sum) for one launch, the L2 emptied before it and drained after "
      "it (so the writes it leaves in the L2 count). Baseline: "
      "the paper's CUDA baseline, staged where the row fits one CTA, else global_reread; clustered: the fastest "
      "measured cluster P; floor: the compulsory bytes of the static figures (what every schedule must move). "
      "Model: the floor, plus b_reread for the global-reread kernel. A kernel is flagged when it measures more than "
      "{:.0f}% above its model.",
      100 * (dram::kOverModel - 1))});
  Table t;
  t.header = {"device", "workload", "M", "N", "baseline", "B/elem", "model", "cluster", "B/elem", "floor",
              "cluster / floor"};
  t.numeric = {false, false, true, true, false, true, true, false, true, true, true};
  for (const auto& sh : d.traffic) {
    const auto& b = sh.baseline;
    const auto& c = sh.cluster;
    t.rows.push_back({d.devices[std::size_t(sh.device)].tag, sh.workload, std::to_string(sh.m), std::to_string(sh.n),
                      b ? b->schedule : cells::kNone, b ? bpe(b->bytes.total) : cells::kNone,
                      b ? bpe(b->bytes.model) : cells::kNone, c ? fmt::format("P={}", c->p) : cells::kNone,
                      c ? bpe(c->bytes.total) : cells::kNone, bpe(sh.compulsory),
                      c ? cells::fixed(c->bytes.total / sh.compulsory, 3) : cells::kNone});
  }
  s.blocks.push_back(std::move(t));
  Table over;
  over.header = {"device", "workload", "M", "N", "kernel", "read", "write", "measured", "model", "measured / model"};
  over.numeric = {false, false, true, true, false, true, true, true, true, true};
  std::size_t kernels = 0;
  for (const auto& sh : d.traffic)
    for (const auto& k : sh.kernels) {
      ++kernels;
      if (k.bytes.over_model)
        over.rows.push_back({d.devices[std::size_t(sh.device)].tag, sh.workload, std::to_string(sh.m),
                             std::to_string(sh.n), kernel_name(k), bpe(k.bytes.read), bpe(k.bytes.write),
                             bpe(k.bytes.total), bpe(k.bytes.model), cells::fixed(k.bytes.total / k.bytes.model, 3)});
    }
  if (over.rows.empty()) {
    s.blocks.push_back(Paragraph{fmt::format("None of the {} measured kernels moves more than {:.0f}% above its model.",
                                             kernels, 100 * (dram::kOverModel - 1))});
  } else {
    s.blocks.push_back(Paragraph{fmt::format("{} of the {} measured kernels move more than {:.0f}% above their model "
                                             "(bytes per element):",
                                             over.rows.size(), kernels, 100 * (dram::kOverModel - 1))});
    s.blocks.push_back(std::move(over));
  }
  return s;
}

std::vector<svg::BarChart> traffic_panels(const ReportData& d) {
  // One panel per device and N, a group per workload; the title gives M (its range when the
  // workloads were measured at several), a label names M only where one workload has two.
  using Panel = std::pair<int, long long>;
  std::map<Panel, std::set<long long>> ms;
  std::map<Panel, std::map<std::string, int>> count;
  for (const auto& sh : d.traffic) {
    ms[{sh.device, sh.n}].insert(sh.m);
    ++count[{sh.device, sh.n}][sh.workload];
  }
  std::map<Panel, svg::BarChart> by_panel;
  for (const auto& sh : d.traffic) {
    const Panel key{sh.device, sh.n};
    auto [it, fresh] = by_panel.try_emplace(key);
    svg::BarChart& ch = it->second;
    if (fresh) {
      const std::set<long long>& m = ms[key];
      ch.title = fmt::format("{}N = {}, M = {}", d.devices.size() > 1 ? d.devices[std::size_t(sh.device)].tag + ": " : "",
                             sh.n, m.size() == 1 ? std::to_string(*m.begin())
                                                 : fmt::format("{} ... {}", *m.begin(), *m.rbegin()));
      ch.x_label = "workload";
      ch.y_label = "DRAM bytes per element";
      ch.series = {kBaselineSeries, kClusterSeries, kFloorSeries};
    }
    const auto total = [](const std::optional<TrafficKernel>& k) {
      return k ? std::optional<double>(k->bytes.total) : std::nullopt;
    };
    ch.groups.push_back({count[key][sh.workload] == 1 ? sh.workload : fmt::format("{} M{}", sh.workload, sh.m),
                         {total(sh.baseline), total(sh.cluster), sh.compulsory}});
  }
  std::vector<svg::BarChart> out;
  for (auto& [key, ch] : by_panel) {
    ch.width = std::max(ch.width, 110 * int(ch.groups.size()));  // room for each workload's name
    out.push_back(std::move(ch));
  }
  svg::share_y_range(out);
  return out;
}

}  // namespace credit::report
