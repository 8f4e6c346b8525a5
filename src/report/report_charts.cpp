#include "report/report_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report/report_stats.hpp"
#include "report/report_tables.hpp"
#include "report/report_traffic.hpp"
#include "report/svg_chart.hpp"

namespace credit::report {

namespace {

const char* const kWidthAxis = "row width N (elements, log2 scale)";

// One colour per baseline in every chart; "best" is drawn black and dashed.
int style_of(std::string_view key) {
  if (key == kCuda.key) return 0;
  for (std::size_t i = 0; i < kFrameworks.size(); ++i)
    if (kFrameworks[i].key == key) return int(i) + 1;
  return 6;
}
constexpr int kCreditStyle = 6;  // black: the series every bandwidth chart is about

// The shapes of one panel: one workload at one row count M, ascending N (c.shapes' order).
struct Panel {
  std::string workload;
  long long m = 0;
  std::vector<const ShapeResult*> shapes;
};
std::vector<Panel> panels_of(const Comparison& c) {
  std::vector<Panel> out;
  for (const auto& sh : c.shapes) {
    if (out.empty() || out.back().workload != sh.workload || out.back().m != sh.m)
      out.push_back({sh.workload, sh.m, {}});
    out.back().shapes.push_back(&sh);
  }
  return out;
}

// The x axis of every panel of a comparison: all its widths, so the panels line up.
svg::Axis width_axis(const Comparison& c) {
  const auto ns = widths(c);
  return {kWidthAxis, true, double(ns.front()), double(ns.back())};
}

std::string p_text(int p) { return p == 1 ? "a one-CTA kernel" : fmt::format("cluster P = {}", p); }

// Under a speedup panel: the P of the measured fastest schedule at each width, and the P the
// model picks there, in alert where the two differ.
std::vector<svg::LabelRow> p_rows(const Panel& panel, const std::optional<std::string>& variant) {
  constexpr auto kPlain = svg::Label::plain, kMuted = svg::Label::muted;
  svg::LabelRow fastest{"fastest P", {}}, picked{variant ? *variant + " P" : "", {}};
  for (const ShapeResult* sh : panel.shapes) {
    const auto p = measured_p(*sh);
    if (p) {
      std::string tip = fmt::format("N = {}: fastest is {}", sh->n, p_text(*p));
      if (sh->credit && sh->one_cta)
        tip += fmt::format(" (fastest cluster P = {}: {:.4f} ms; {}: {:.4f} ms)", sh->credit->p, sh->credit->ms,
                           sh->one_cta->schedule, sh->one_cta->ms);
      fastest.labels.push_back({double(sh->n), std::to_string(*p), tip, *p == 1 ? kMuted : kPlain});
    }
    if (!variant) continue;
    const auto it = sh->picked_p.find(*variant);
    if (it == sh->picked_p.end()) continue;
    const bool right = p && *p == it->second;
    picked.labels.push_back({double(sh->n), std::to_string(it->second),
                             fmt::format("N = {}: the {} model picks {}{}", sh->n, *variant, p_text(it->second),
                                         right || !p ? "" : "; measured fastest: " + p_text(*p)),
                             !right && p ? svg::Label::alert : it->second == 1 ? kMuted : kPlain});
  }
  std::vector<svg::LabelRow> rows{std::move(fastest)};
  if (!picked.labels.empty()) rows.push_back(std::move(picked));
  return rows;
}

std::string series_name(std::string_view key) {
  return "vs " + std::string(key == kBest ? "best baseline" : baseline_label(key));
}

// Baselines drawn in the speedup charts: all but PyTorch eager, whose unfused kernels run several
// times slower and would flatten every other curve (the tables keep it, and "best" counts it).
std::vector<std::string> charted_keys(const Comparison& c) {
  std::vector<std::string> keys = baseline_keys(c);
  std::erase(keys, std::string(kTorchEager.key));
  if (!c.frameworks.empty()) keys.emplace_back(kBest);  // as the tables show it
  return keys;
}

std::vector<std::string> render(std::vector<svg::LineChart> panels) {
  std::vector<std::string> out;
  for (const auto& ch : panels) out.push_back(svg::line_chart(ch));
  return out;
}

std::string geomean_chart(const Comparison& c) {
  const std::vector<std::string> keys = charted_keys(c);
  svg::LineChart ch;
  ch.title = "Geometric mean over workloads";
  ch.x = {kWidthAxis, true, {}, {}};
  ch.y = {"geomean speedup (x)", false, {}, {}};
  ch.reference_y = 1;
  ch.reference_label = "parity";
  for (const auto& key : keys) {
    svg::Series s{series_name(key), {}, style_of(key), key == kBest};
    for (long long n : widths(c)) {
      std::vector<double> v;
      for (const auto& sh : c.shapes)
        if (sh.n == n)
          if (const auto x = speedup(sh, key)) v.push_back(*x);
      if (const auto g = geomean(v)) s.points.emplace_back(double(n), *g);
    }
    ch.series.push_back(std::move(s));
  }
  return svg::line_chart(ch);
}

std::string crossover_chart(const Comparison& c) {
  svg::DotPlot ch;
  ch.title = "Crossover width N*: measured and predicted";
  const auto ns = widths(c);
  ch.x = {"N* (elements, log2 scale)", true, double(ns.front()), double(ns.back())};
  ch.series.push_back("measured");
  for (const auto& v : c.variants) ch.series.push_back("predicted, " + v + " model");
  ch.none_label = "none";
  for (const auto& w : c.summary.workloads) {
    std::vector<std::optional<double>> xs;
    auto as_x = [](std::optional<long long> n) { return n ? std::optional<double>(double(*n)) : std::nullopt; };
    xs.push_back(as_x(w.measured_n_star));
    for (const auto& v : c.variants) {
      const auto it = w.predicted_n_star.find(v);
      xs.push_back(as_x(it == w.predicted_n_star.end() ? std::nullopt : it->second));
    }
    ch.rows.emplace_back(w.workload, std::move(xs));
  }
  ch.width = 560;
  return svg::dot_plot(ch);
}

std::vector<std::string> calibration_charts(const ReportData& d) {
  std::vector<svg::BarChart> throughput;
  svg::BarChart barrier;
  barrier.title = "Cluster barrier by cluster size";
  barrier.x_label = "cluster size P (CTAs)";
  barrier.y_label = "cycles per cluster barrier";
  std::set<int> all_ps;
  for (const auto& col : d.calibrations) {
    const Calibration& c = col.calibration;
    const std::string tag = d.devices[std::size_t(col.device)].tag;
    svg::BarChart ch;
    ch.title = fmt::format("SMEM and DSMEM throughput, {} ({})", tag, col.source);
    ch.x_label = "cluster size P (CTAs)";
    ch.y_label = "bytes / cycle / SM";
    ch.series = {"local read", "local store", "remote read", "remote store"};
    for (int p : cluster_sizes(c)) {
      std::vector<std::optional<double>> v;
      for (const auto* m : {&c.local_read, &c.local_store, &c.remote_read, &c.remote_store}) {
        const auto it = m->find(p);
        v.push_back(it == m->end() ? std::nullopt : std::optional(it->second.median));
      }
      ch.groups.emplace_back(fmt::format("P={}", p), std::move(v));
      all_ps.insert(p);
    }
    throughput.push_back(std::move(ch));
    barrier.series.push_back(tag + " " + d.devices[std::size_t(col.device)].label);
  }
  for (int p : all_ps) {
    std::vector<std::optional<double>> v;
    for (const auto& col : d.calibrations) {
      const auto it = col.calibration.barrier.find(p);
      v.push_back(it == col.calibration.barrier.end() ? std::nullopt : std::optional(it->second.median));
    }
    barrier.groups.emplace_back(fmt::format("P={}", p), std::move(v));
  }
  svg::share_y_range(throughput);  // one scale for every device's panel
  std::vector<std::string> out;
  for (const auto& ch : throughput) out.push_back(svg::bar_chart(ch));
  if (!d.calibrations.empty()) out.push_back(svg::bar_chart(barrier));
  return out;
}

}  // namespace

std::vector<svg::LineChart> speedup_panels(const Comparison& c) {
  const std::vector<std::string> keys = charted_keys(c);
  const auto variant = pick_variant(c);
  std::vector<svg::LineChart> out;
  for (const auto& panel : panels_of(c)) {
    svg::LineChart ch;
    ch.title = fmt::format("{} (M = {})", panel.workload, panel.m);
    ch.x = width_axis(c);
    ch.y = {"speedup T_baseline / T_CREDIT (x)", false, {}, {}};
    ch.reference_y = 1;
    ch.reference_label = "parity";
    for (const auto& key : keys) {
      svg::Series s{series_name(key), {}, style_of(key), key == kBest};
      for (const ShapeResult* sh : panel.shapes)
        if (const auto x = speedup(*sh, key)) s.points.emplace_back(double(sh->n), *x);
      ch.series.push_back(std::move(s));
    }
    ch.label_rows = p_rows(panel, variant);
    out.push_back(std::move(ch));
  }
  svg::share_y_range(out);
  return out;
}

std::vector<svg::LineChart> bandwidth_panels(const Comparison& c) {
  const auto keys = baseline_keys(c);
  std::vector<svg::LineChart> out;
  double top = 0;
  for (const auto& panel : panels_of(c)) {
    svg::LineChart ch;
    ch.title = fmt::format("{} (M = {})", panel.workload, panel.m);
    ch.x = width_axis(c);
    ch.y = {"% of copy bandwidth", false, 0.0, {}};
    svg::Series credit{"CREDIT (best P)", {}, kCreditStyle, false};
    std::vector<svg::Series> base;
    for (const auto& key : keys)
      base.push_back({std::string(baseline_label(key)) + (key == kCuda.key ? " baseline" : ""), {}, style_of(key), false});
    for (const ShapeResult* sh : panel.shapes) {
      if (sh->credit) credit.points.emplace_back(double(sh->n), sh->credit->pct_of_copy);
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (const auto it = sh->baselines.find(keys[i]); it != sh->baselines.end())
          base[i].points.emplace_back(double(sh->n), it->second.pct_of_copy);
    }
    ch.series.push_back(std::move(credit));
    for (auto& s : base) ch.series.push_back(std::move(s));
    for (const auto& s : ch.series)
      for (auto [x, y] : s.points) top = std::max(top, y);
    out.push_back(std::move(ch));
  }
  for (auto& ch : out)
    if (top <= 100) ch.y.max = 100.0;  // the copy is the ceiling; show it
  svg::share_y_range(out);
  return out;
}

std::map<std::string, std::vector<std::string>> report_charts(const ReportData& d) {
  std::map<std::string, std::vector<std::string>> charts;
  charts["table2"] = calibration_charts(d);
  for (std::size_t k = 0; k < d.comparisons.size(); ++k) {
    const Comparison& c = d.comparisons[k];
    charts[section_id("fig3", k)] = render(speedup_panels(c));
    charts[section_id("table4", k)] = {geomean_chart(c)};
    charts[section_id("fig4", k)] = {crossover_chart(c)};
    charts[section_id("bandwidth", k)] = render(bandwidth_panels(c));
  }
  for (const auto& ch : traffic_panels(d)) charts["fig5"].push_back(svg::bar_chart(ch));
  return charts;
}

}  // namespace credit::report
