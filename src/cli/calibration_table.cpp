#include "cli/calibration_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <utility>
#include <vector>

namespace credit::cli {

namespace {

constexpr int kLabel = 30, kCol = 9;

// (max - min) / median, percent: how far the runs behind a median scattered.
double spread_pct(const Stat& s) { return s.median > 0 ? 100.0 * (s.max - s.min) / s.median : 0.0; }

// One line: the label, one cell per P (cell(p) is "" for none), the spread when >= 0.
std::string row(const std::string& label, const std::set<int>& ps, const std::function<std::string(int)>& cell,
                double spread) {
  std::string line = fmt::format("{:<{}}", label, kLabel);
  for (int p : ps) line += fmt::format("{:>{}}", cell(p), kCol);
  if (spread >= 0) line += fmt::format("  {:>6.1f}%", spread);
  return line + "\n";
}

template <class V, class F>
std::string cell_of(const std::map<int, V>& m, int p, F fmt_value) {
  const auto it = m.find(p);
  return it == m.end() ? std::string("-") : fmt_value(it->second);
}

std::string per_p_row(const std::string& label, const std::set<int>& ps, const std::map<int, Stat>& m) {
  double spread = 0;
  for (const auto& [p, s] : m) spread = std::max(spread, spread_pct(s));
  return row(label, ps, [&](int p) {
    return cell_of(m, p, [](const Stat& s) { return fmt::format("{:.1f}", s.median); });
  }, spread);
}

// Latency is one figure from a 2-CTA cluster: shown in the first column.
std::string latency_row(const std::string& label, const std::set<int>& ps, const Stat& s) {
  return row(label, ps, [&](int p) { return p == *ps.begin() ? fmt::format("{:.1f}", s.median) : ""; },
             spread_pct(s));
}

}  // namespace

std::string format_table_ii(const Calibration& c) {
  std::set<int> ps;
  for (const auto* m : {&c.local_read, &c.local_store, &c.remote_read, &c.remote_store, &c.barrier})
    for (const auto& [p, s] : *m) ps.insert(p);
  for (const auto& [p, n] : c.max_active_clusters) ps.insert(p);
  if (ps.empty()) ps.insert(2);

  const Stat& lo = c.local_load_latency;
  const Stat& re = c.remote_load_latency;
  std::string out = fmt::format("Table II: DSMEM microbenchmarks on {} ({}), median of {} runs\n", c.device.name,
                                c.device.uuid, lo.runs);
  out += fmt::format("f = {:.1f} MHz: {}\n\n", c.sm_clock_hz * 1e-6, c.clock_source);
  std::string head = row("", ps, [](int p) { return fmt::format("P={}", p); }, -1);
  head.insert(head.size() - 1, fmt::format("  {:>7}", "spread"));
  out += head;
  out += latency_row("local load latency (cycles)", ps, lo);
  out += latency_row("remote load latency (cycles)", ps, re);
  out += per_p_row("local read (B/cycle/SM)", ps, c.local_read);
  out += per_p_row("local store (B/cycle/SM)", ps, c.local_store);
  out += per_p_row("remote read (B/cycle/SM)", ps, c.remote_read);
  out += per_p_row("remote store (B/cycle/SM)", ps, c.remote_store);
  out += row("local / remote read (x)", ps, [&](int p) {
    const auto l = c.local_read.find(p), r = c.remote_read.find(p);
    if (l == c.local_read.end() || r == c.remote_read.end() || r->second.median <= 0) return std::string("-");
    return fmt::format("{:.2f}", l->second.median / r->second.median);
  }, -1);
  out += per_p_row("cluster barrier (cycles)", ps, c.barrier);
  out += row("max active clusters", ps, [&](int p) {
    return cell_of(c.max_active_clusters, p, [](int n) { return std::to_string(n); });
  }, -1);

  const double ns = c.sm_clock_hz > 0 ? 1e9 / c.sm_clock_hz : 0;
  out += fmt::format("\nremote / local load latency: {:.2f}x ({:.1f} ns vs {:.1f} ns at f)\n",
                     lo.median > 0 ? re.median / lo.median : 0.0, re.median * ns, lo.median * ns);
  out += "latency: one 2-CTA cluster (shown under the first P). spread: the largest (max - min) / median\n"
         "over the row's runs. max active clusters: the clustered kernel at its largest shared memory\n"
         "(widest legal row), fewest over the workloads.\n";
  return out;
}

std::string format_kernel_probes(const Calibration& c) {
  std::string out;
  // The name column as wide as the longest workload (softmax_dropout_bwd, a typed name such as layernorm@bf16).
  std::size_t nw = 14;
  for (const auto& [w, ns] : c.elem_ns) nw = std::max(nw, w.size());
  for (const auto& [w, k] : c.kernel_probes) nw = std::max(nw, w.size());
  if (!c.elem_ns.empty()) {
    out += "\nSM-work probe, ns per element per SM (the staged kernel's slope; all SMs busy, and 16 SMs alone):\n";
    for (const auto& [w, ns] : c.elem_ns) {
      const auto lone = c.elem_ns_lone.find(w);
      out += lone == c.elem_ns_lone.end() ? fmt::format("{:<{}}  {:.4f}\n", w, nw, ns)
                                          : fmt::format("{:<{}}  {:.4f}  {:.4f}\n", w, nw, ns, lone->second);
    }
  }
  if (c.kernel_probes.empty()) return out;
  out += "\nkernel probes (the time model scales these kernels by measured / predicted here), median ms:\n";
  for (const auto& [w, by_kernel] : c.kernel_probes) {  // at most four kernels a line
    // The partial kernels first, then the register variants from the narrowest row to the widest.
    std::vector<std::pair<std::string, KernelProbe>> kernels(by_kernel.begin(), by_kernel.end());
    auto rank = [](const std::pair<std::string, KernelProbe>& e) {
      const bool reg = e.first.rfind("registers", 0) == 0;
      return std::pair{reg, reg ? e.second.n : 0LL};
    };
    std::stable_sort(kernels.begin(), kernels.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    std::string line = fmt::format("{:<{}}", w, nw);
    int on_line = 0;
    for (const auto& [k, pr] : kernels) {
      if (on_line == 4) {
        out += line + "\n";
        line = std::string(nw, ' ');
        on_line = 0;
      }
      line += fmt::format("  {} {}x{} {:.4f}", k, pr.m, pr.n, pr.ms);
      ++on_line;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace credit::cli
