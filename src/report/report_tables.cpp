#include "report/report_tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <set>

#include "report/cells.hpp"
#include "report/report_stats.hpp"

namespace credit::report {

namespace {

const Device& device_of(const ReportData& d, int i) { return d.devices[std::size_t(i)]; }

std::string device_title(const ReportData& d, int i) {
  const Device& dev = device_of(d, i);
  return dev.tag + " " + dev.label;
}

// A table of right-aligned number columns but for the `text` ones.
Table make_table(std::vector<std::string> header, std::initializer_list<std::size_t> text) {
  Table t;
  t.numeric.assign(header.size(), true);
  for (std::size_t i : text)
    if (i < header.size()) t.numeric[i] = false;
  t.header = std::move(header);
  return t;
}

std::optional<double> timing_ms(const ShapeResult& s, const std::string& key) {
  const auto it = s.baselines.find(key);
  return it == s.baselines.end() ? std::nullopt : std::optional<double>(it->second.ms);
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// Which baselines this comparison lacks, and where the framework points came from.
std::string baselines_paragraph(const ReportData& d, const Comparison& c) {
  std::vector<std::string> missing;
  for (const auto& f : kFrameworks)
    if (std::find(c.frameworks.begin(), c.frameworks.end(), f.key) == c.frameworks.end())
      missing.emplace_back(f.label);
  std::string out;
  if (c.frameworks.empty())
    out = "torch.compile, Triton and PyTorch eager were not measured for this GPU (no baseline file was given): "
          "speedups are against the CUDA baseline only.";
  else if (!missing.empty())
    out = join(missing, ", ") + ": not measured.";
  for (int fd : c.framework_devices)
    if (fd != c.device)
      out += fmt::format(" Framework baselines measured on {}, another {} than the CUDA sweep.", device_title(d, fd),
                         device_of(d, fd).info.name);
  return out;
}

std::string stat_cell(const std::map<int, Stat>& m, int p, int decimals) {
  const auto it = m.find(p);
  return it == m.end() ? cells::kNone : cells::fixed(it->second.median, decimals);
}

std::string steps_cell(std::optional<int> steps, std::optional<long long> predicted, std::optional<long long> measured) {
  if (!predicted && !measured) return "exact";
  if (!predicted) return "not found";
  if (!measured) return "no crossover measured";
  if (*steps == 0) return "exact";
  return fmt::format("{:+d} width{}", *steps, std::abs(*steps) == 1 ? "" : "s");
}

}  // namespace

std::string section_id(const char* base, std::size_t k) { return fmt::format("{}-{}", base, k + 1); }

Section calibration_section(const ReportData& d) {
  Section s{"table2", "Table II: DSMEM microbenchmarks (calibration)", 2, {}};
  if (d.calibrations.empty()) {
    s.blocks.push_back(Paragraph{"No calibration in the files given (run `credit calibrate`)."});
    return s;
  }
  s.blocks.push_back(Paragraph{
      "Medians of the runs shown, the two CTAs of a cluster forced onto different SMs; rates in bytes per cycle "
      "per SM, latencies in cycles of the SM clock f. Paper (H100 / RTX 5090): a remote load has about 6.4x the "
      "local latency, remote reads 4.4-5.4x lower throughput, a cluster barrier 851 / 404 cycles."});
  std::vector<std::string> head{""};
  for (const auto& c : d.calibrations) head.push_back(device_of(d, c.device).tag + " (" + c.source + ")");
  Table scalars = make_table(head, {0});
  auto scalar_row = [&](const std::string& label, auto value) {
    std::vector<std::string> row{label};
    for (const auto& c : d.calibrations) row.push_back(value(c.calibration));
    scalars.rows.push_back(std::move(row));
  };
  scalar_row("SM clock f (MHz)", [](const Calibration& c) { return cells::fixed(c.sm_clock_hz * 1e-6, 1); });
  scalar_row("local load latency (cycles)", [](const Calibration& c) { return cells::fixed(c.local_load_latency.median, 1); });
  scalar_row("remote load latency (cycles)", [](const Calibration& c) { return cells::fixed(c.remote_load_latency.median, 1); });
  scalar_row("remote / local latency (x)", [](const Calibration& c) {
    const double l = c.local_load_latency.median;
    return cells::fixed(l > 0 ? std::optional(c.remote_load_latency.median / l) : std::nullopt, 2);
  });
  scalar_row("runs per median", [](const Calibration& c) { return std::to_string(c.local_load_latency.runs); });
  s.blocks.push_back(std::move(scalars));

  Table per_p = make_table({""}, {0});
  for (const auto& c : d.calibrations) {
    const std::set<int> ps = cluster_sizes(c.calibration);
    per_p.groups.emplace_back(device_title(d, c.device) + " (" + c.source + ")", int(ps.size()));
    per_p.group_prefix.push_back(device_of(d, c.device).tag);
    for (int p : ps) {
      per_p.header.push_back(fmt::format("P={}", p));
      per_p.numeric.push_back(true);
    }
  }
  auto per_p_row = [&](const std::string& label, auto cell) {
    std::vector<std::string> row{label};
    for (const auto& c : d.calibrations)
      for (int p : cluster_sizes(c.calibration)) row.push_back(cell(c.calibration, p));
    per_p.rows.push_back(std::move(row));
  };
  per_p_row("local read (B/cycle/SM)", [](const Calibration& c, int p) { return stat_cell(c.local_read, p, 1); });
  per_p_row("local store (B/cycle/SM)", [](const Calibration& c, int p) { return stat_cell(c.local_store, p, 1); });
  per_p_row("remote read (B/cycle/SM)", [](const Calibration& c, int p) { return stat_cell(c.remote_read, p, 1); });
  per_p_row("remote store (B/cycle/SM)", [](const Calibration& c, int p) { return stat_cell(c.remote_store, p, 1); });
  per_p_row("local / remote read (x)", [](const Calibration& c, int p) {
    const auto l = c.local_read.find(p), r = c.remote_read.find(p);
    if (l == c.local_read.end() || r == c.remote_read.end() || !(r->second.median > 0)) return std::string(cells::kNone);
    return cells::fixed(l->second.median / r->second.median, 2);
  });
  per_p_row("cluster barrier (cycles)", [](const Calibration& c, int p) { return stat_cell(c.barrier, p, 1); });
  per_p_row("max active clusters", [](const Calibration& c, int p) {
    const auto it = c.max_active_clusters.find(p);
    return it == c.max_active_clusters.end() ? std::string(cells::kNone) : std::to_string(it->second);
  });
  s.blocks.push_back(std::move(per_p));
  return s;
}

Section speedup_section(const ReportData& d, std::size_t k) {
  const Comparison& c = d.comparisons[k];
  Section s{section_id("fig3", k), "Fig. 3: speedup of CREDIT over each baseline, " + device_title(d, c.device), 2, {}};
  const std::vector<std::string> keys = baseline_keys(c);
  const bool with_best = keys.size() > 1;
  s.blocks.push_back(Paragraph{
      "Speedup S_B = T_B / T_CREDIT (above 1: CREDIT is faster), medians; CREDIT is the fastest passed clustered "
      "P at the shape; CUDA is the one-CTA path the model used there (staged when the row fits one CTA, else "
      "global reread)" +
      std::string(with_best ? "; best is the fastest baseline measured at the shape, where at least two were."
                            : ".")});
  if (const auto v = pick_variant(c))
    s.blocks.push_back(Paragraph{fmt::format(
        "Charts (HTML): one per workload and M, all on one y scale; under each, 'fastest P' is the P of the "
        "measured fastest schedule at each width (1, in grey: a one-CTA kernel beats every cluster) and '{0} P' "
        "the P the {0} model picks, in bold red where it is not the fastest.",
        *v)});
  if (const std::string b = baselines_paragraph(d, c); !b.empty()) s.blocks.push_back(Paragraph{b});
  if (std::find(c.frameworks.begin(), c.frameworks.end(), kTorchEager.key) != c.frameworks.end())
    s.blocks.push_back(Paragraph{"PyTorch eager (unfused, several times slower) is in the tables and counts for "
                                 "best, but is left out of the charts, whose scale it would flatten."});
  std::vector<std::string> head{"workload", "M", "N", "CUDA path", "best P", "T_CREDIT ms", "T_CUDA ms"};
  for (const auto& key : keys) head.push_back("vs " + std::string(baseline_label(key)));
  if (with_best) {
    head.push_back("fastest baseline");
    head.push_back("vs best");
  }
  Table t = make_table(head, {0, 3});
  if (with_best) t.numeric[t.numeric.size() - 2] = false;
  for (const auto& sh : c.shapes) {
    const auto cuda = sh.baselines.find(std::string(kCuda.key));
    std::vector<std::string> row{sh.workload,
                                 std::to_string(sh.m),
                                 std::to_string(sh.n),
                                 cuda == sh.baselines.end() ? cells::kNone : cuda->second.schedule,
                                 sh.credit ? std::to_string(sh.credit->p) : cells::kNone,
                                 cells::ms(sh.credit ? std::optional(sh.credit->ms) : std::nullopt),
                                 cells::ms(timing_ms(sh, std::string(kCuda.key)))};
    for (const auto& key : keys) row.push_back(cells::speedup(speedup(sh, key)));
    if (with_best) {
      const auto best = fastest_baseline(sh);
      row.push_back(best ? std::string(baseline_label(*best)) : cells::kNone);
      row.push_back(cells::speedup(speedup(sh, kBest)));
    }
    t.rows.push_back(std::move(row));
  }
  s.blocks.push_back(std::move(t));
  return s;
}

Section geomean_section(const ReportData& d, std::size_t k) {
  const Comparison& c = d.comparisons[k];
  Section s{section_id("table4", k), "Table IV: geometric-mean speedup per baseline, " + device_title(d, c.device), 2,
            {}};
  std::vector<std::string> keys = baseline_keys(c);
  const bool with_best = keys.size() > 1;
  if (with_best) keys.emplace_back(kBest);
  s.blocks.push_back(Paragraph{
      "Geometric mean over the workloads of S_B at each width, then over all shapes; a count in parentheses says "
      "over how many shapes when a baseline is missing at some. Paper, at 4K: 0.815 (H100) and 0.738 (RTX 5090) "
      "against the one-CTA baseline; over all workloads against the best baseline: 1.318 (H100), 1.466 (RTX 5090)."});
  std::vector<std::string> head{"N", "shapes"};
  for (const auto& key : keys) head.push_back("vs " + std::string(key == kBest ? "best" : baseline_label(key)));
  head.emplace_back("CREDIT faster than CUDA");
  if (with_best) head.emplace_back("CREDIT faster than best");
  Table t = make_table(head, {});
  std::vector<std::optional<long long>> rows;
  for (long long n : widths(c)) rows.emplace_back(n);
  rows.emplace_back(std::nullopt);  // all widths
  for (const auto& n : rows) {
    std::vector<const ShapeResult*> shapes;
    for (const auto& sh : c.shapes)
      if (!n || sh.n == *n) shapes.push_back(&sh);
    std::vector<std::string> row{n ? std::to_string(*n) : "all", std::to_string(shapes.size())};
    for (const auto& key : keys) {
      std::vector<double> v;
      for (const auto* sh : shapes)
        if (const auto x = speedup(*sh, key)) v.push_back(*x);
      std::string cell = cells::speedup(geomean(v));
      if (!v.empty() && v.size() < shapes.size()) cell += fmt::format(" ({})", v.size());
      row.push_back(cell);
    }
    for (std::string_view key : {kCuda.key, kBest}) {
      if (key == kBest && !with_best) break;
      int wins = 0, compared = 0;
      for (const auto* sh : shapes)
        if (const auto x = speedup(*sh, key)) {
          ++compared;
          wins += *x > 1;
        }
      row.push_back(compared ? cells::ratio(wins, compared) : cells::kNone);
    }
    t.rows.push_back(std::move(row));
  }
  s.blocks.push_back(std::move(t));
  return s;
}

Section prediction_section(const ReportData& d) {
  Section s{"table5", "Table V: profitability predicted vs measured", 2, {}};
  if (d.comparisons.empty()) {
    s.blocks.push_back(Paragraph{"No sweep with predictions in the files given."});
    return s;
  }
  s.blocks.push_back(Paragraph{
      "Predicted profitable: the model finds a legal P with dT > 0 (Eq. 9). Measured profitable: the best "
      "clustered P is faster than the CUDA baseline at the shape (as `credit run-sweep --summarize` counts). "
      "TP: predicted and measured; FP: predicted, not measured; TN: neither; FN: measured, not predicted. "
      "Paper: 55/60 right (H100 28/30), every global-reread-baseline shape right."});
  Table t = make_table({"device", "model", "shapes", "TP", "FP", "TN", "FN", "accuracy", "right, staged baseline",
                        "right, global-reread baseline"},
                       {0, 1});
  std::set<std::string> variants;
  auto add_row = [&](const std::string& device, const std::string& v, const Confusion& all, const Confusion& st,
                     const Confusion& gr) {
    t.rows.push_back({device, v, std::to_string(all.total()), std::to_string(all.tp), std::to_string(all.fp),
                      std::to_string(all.tn), std::to_string(all.fn), cells::percent(all.right(), all.total()),
                      cells::ratio(st.right(), st.total()), cells::ratio(gr.right(), gr.total())});
  };
  for (const auto& c : d.comparisons)
    for (const auto& v : c.variants) {
      variants.insert(v);
      add_row(device_of(d, c.device).tag, v, confusion(c, v), confusion(c, v, "staged"),
              confusion(c, v, "global_reread"));
    }
  if (d.comparisons.size() > 1)
    for (const auto& v : variants) {
      Confusion all, st, gr;
      for (const auto& c : d.comparisons) {
        for (auto [sum, part] : {std::pair{&all, confusion(c, v)}, std::pair{&st, confusion(c, v, "staged")},
                                 std::pair{&gr, confusion(c, v, "global_reread")}}) {
          sum->tp += part.tp, sum->fp += part.fp, sum->tn += part.tn, sum->fn += part.fn;
        }
      }
      add_row("all", v, all, st, gr);
    }
  s.blocks.push_back(std::move(t));
  return s;
}

Section crossover_section(const ReportData& d, std::size_t k) {
  const Comparison& c = d.comparisons[k];
  Section s{section_id("fig4", k), "Fig. 4: crossover width N*, predicted vs measured, " + device_title(d, c.device),
            2, {}};
  std::vector<std::string> tested;
  for (long long n : widths(c)) tested.push_back(std::to_string(n));
  std::string exact;
  for (const auto& v : c.variants) {
    const auto it = c.summary.exact_n_star.find(v);
    exact += fmt::format("{}{}: {}", exact.empty() ? "" : "; ", v,
                         cells::ratio(it == c.summary.exact_n_star.end() ? 0 : it->second,
                                      int(c.summary.workloads.size())));
  }
  s.blocks.push_back(Paragraph{
      "N* is the smallest tested width at which CREDIT is (measured) or is predicted (Eq. 9) to be profitable "
      "against the CUDA baseline; the offset counts tested widths between the predicted and the measured N*. "
      "Tested widths: " +
      join(tested, ", ") + ". N* exact for " + exact + " workloads. Paper: exact for 7 of 12 device-workload pairs, "
      "the others one width off."});
  std::vector<std::string> head{"workload", "measured N*"};
  for (const auto& v : c.variants) {
    head.push_back(v + " N*");
    head.push_back(v + " offset");
  }
  Table t = make_table(head, {0});
  for (const auto& w : c.summary.workloads) {
    std::vector<std::string> row{w.workload, cells::width(w.measured_n_star)};
    for (const auto& v : c.variants) {
      const auto it = w.predicted_n_star.find(v);
      const std::optional<long long> p = it == w.predicted_n_star.end() ? std::nullopt : it->second;
      row.push_back(cells::width(p));
      row.push_back(steps_cell(width_steps(c, w.workload, p, w.measured_n_star), p, w.measured_n_star));
    }
    t.rows.push_back(std::move(row));
  }
  s.blocks.push_back(std::move(t));
  return s;
}

Section bandwidth_section(const ReportData& d, std::size_t k) {
  const Comparison& c = d.comparisons[k];
  Section s{section_id("bandwidth", k), "Bandwidth: % of the copy bandwidth, " + device_title(d, c.device), 2, {}};
  s.blocks.push_back(Paragraph{
      "Each kernel's compulsory bytes over its median time, as a percentage of the copy bandwidth measured in the "
      "same run (the faster of cudaMemcpy device-to-device and a 16-byte-vector copy kernel, read + write bytes); "
      "framework baselines against the copy measured in their own run."});
  std::vector<std::string> head{"workload", "M", "N", "copy GB/s", "CUDA path", "CUDA %", "CREDIT P", "CREDIT %"};
  for (const auto& f : c.frameworks) head.push_back(std::string(baseline_label(f)) + " %");
  Table t = make_table(head, {0, 4});
  for (const auto& sh : c.shapes) {
    const auto cuda = sh.baselines.find(std::string(kCuda.key));
    const bool has_cuda = cuda != sh.baselines.end();
    std::vector<std::string> row{sh.workload,
                                 std::to_string(sh.m),
                                 std::to_string(sh.n),
                                 cells::fixed(sh.copy_gbps, 0),
                                 has_cuda ? cuda->second.schedule : cells::kNone,
                                 cells::pct(has_cuda ? std::optional(cuda->second.pct_of_copy) : std::nullopt),
                                 sh.credit ? std::to_string(sh.credit->p) : cells::kNone,
                                 cells::pct(sh.credit ? std::optional(sh.credit->pct_of_copy) : std::nullopt)};
    for (const auto& f : c.frameworks) {
      const auto it = sh.baselines.find(f);
      row.push_back(cells::pct(it == sh.baselines.end() ? std::nullopt : std::optional(it->second.pct_of_copy)));
    }
    t.rows.push_back(std::move(row));
  }
  s.blocks.push_back(std::move(t));
  return s;
}

}  // namespace credit::report
