#include "report/report_lead.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "report/cells.hpp"
#include "report/report_stats.hpp"

namespace credit::report {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// The widths of `l` that `keep` selects, runs of neighbouring measured widths as "a-b":
// "4096, 16384-151936".
std::string runs(const Lead& l, const std::function<bool(const WidthResult&)>& keep) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < l.widths.size();) {
    if (!keep(l.widths[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < l.widths.size() && keep(l.widths[j + 1])) ++j;
    out.push_back(i == j ? std::to_string(l.widths[i].n) : fmt::format("{}-{}", l.widths[i].n, l.widths[j].n));
    i = j + 1;
  }
  return join(out, ", ");
}

std::string times(double x) { return fmt::format("{:.2f}x", x); }

}  // namespace

std::vector<WidthResult> Lead::there() const {
  std::vector<WidthResult> out;
  for (const auto& w : widths)
    if (n_star ? w.n >= *n_star : w.cluster_wins) out.push_back(w);
  return out;
}

Lead lead_of(std::string workload, long long m, std::vector<WidthResult> widths) {
  std::sort(widths.begin(), widths.end(), [](const WidthResult& a, const WidthResult& b) { return a.n < b.n; });
  Lead l{std::move(workload), m, std::move(widths), std::nullopt};
  for (auto it = l.widths.rbegin(); it != l.widths.rend() && it->cluster_wins; ++it) l.n_star = it->n;
  return l;
}

std::vector<Lead> leads(const Comparison& c, const std::optional<std::string>& variant) {
  std::vector<std::pair<std::string, long long>> order;
  std::map<std::pair<std::string, long long>, std::vector<WidthResult>> groups;
  for (const auto& s : c.shapes) {
    const auto key = std::make_pair(s.workload, s.m);
    if (!groups.count(key)) order.push_back(key);
    WidthResult w{s.n, s.cluster_wins, s.tie, {}, cluster_speedup(s), measured_p(s), {}};
    if (s.credit) w.best_p = s.credit->p;
    if (variant)
      if (const auto it = s.picked_p.find(*variant); it != s.picked_p.end()) w.model_p = it->second;
    groups[key].push_back(w);
  }
  std::vector<Lead> out;
  for (const auto& key : order) out.push_back(lead_of(key.first, key.second, groups[key]));
  return out;
}

std::string from_cell(const Lead& l) { return l.n_star ? std::to_string(*l.n_star) : "never"; }

std::string p_cell(const Lead& l) {
  const std::vector<WidthResult> there = l.there();
  std::vector<int> ps;  // in order of first appearance
  for (const auto& w : there)
    if (w.best_p && std::find(ps.begin(), ps.end(), *w.best_p) == ps.end()) ps.push_back(*w.best_p);
  if (ps.size() <= 1) return ps.empty() ? cells::kNone : std::to_string(ps.front());
  std::set<long long> in_there;
  for (const auto& w : there) in_there.insert(w.n);
  std::vector<std::string> out;
  for (int p : ps)
    out.push_back(fmt::format("{} ({})", p, runs(l, [&](const WidthResult& w) {
                                return in_there.count(w.n) && w.best_p == p;
                              })));
  return join(out, ", ");
}

std::string speedup_cell(const Lead& l) {
  std::vector<double> v;
  for (const auto& w : l.there())
    if (w.speedup) v.push_back(*w.speedup);
  if (v.empty()) return cells::kNone;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return times(*lo) == times(*hi) ? times(*lo) : fmt::format("{:.2f}-{}", *lo, times(*hi));
}

std::string notes_cell(const Lead& l) {
  std::vector<std::string> notes;
  const auto first_win =
      std::find_if(l.widths.begin(), l.widths.end(), [](const WidthResult& w) { return w.cluster_wins; });
  if (first_win == l.widths.end()) {
    const WidthResult* closest = nullptr;
    for (const auto& w : l.widths)
      if (w.speedup && (!closest || *w.speedup > *closest->speedup)) closest = &w;
    notes.push_back(closest ? fmt::format("closest: {} at {} (P = {})", times(*closest->speedup), closest->n,
                                          closest->best_p.value_or(0))
                            : "no cluster passed");
  } else {
    const long long from = first_win->n;
    const long long below = l.n_star.value_or(l.widths.back().n + 1);
    const std::string wins = runs(l, [&](const WidthResult& w) { return w.cluster_wins && w.n < below; });
    const std::string losses = runs(l, [&](const WidthResult& w) { return !w.cluster_wins && w.n > from; });
    if (!wins.empty()) notes.push_back((l.n_star ? "also wins at " : "wins at ") + wins + "; not at " + losses);
  }
  const std::string ties = runs(l, [](const WidthResult& w) { return w.tie; });
  if (!ties.empty()) notes.push_back("within noise at " + ties + " (the two timing passes disagree)");
  return notes.empty() ? cells::kNone : join(notes, "; ");
}

std::string measured_cell(const Lead& l) {
  if (l.widths.empty()) return "0";
  return l.widths.size() == 1 ? fmt::format("1 ({})", l.widths.front().n)
                              : fmt::format("{} ({}-{})", l.widths.size(), l.widths.front().n, l.widths.back().n);
}

std::string model_cell(const Lead& l) {
  int right = 0, judged = 0;
  for (const auto& w : l.widths)
    if (w.model_p && w.measured_p) {
      ++judged;
      right += *w.model_p == *w.measured_p;
    }
  return judged ? cells::ratio(right, judged) : cells::kNone;
}

Section lead_section(const ReportData& d) {
  Section s{"lead", "When to cluster: from N >= N*, with P = ...", 2, {}};
  if (d.comparisons.empty()) {
    s.blocks.push_back(Paragraph{"No sweep with predictions in the files given: nothing to lead with."});
    return s;
  }
  std::set<std::string> variants;
  for (const auto& c : d.comparisons)
    if (const auto v = pick_variant(c)) variants.insert(*v);
  const std::string model = variants.size() == 1 ? *variants.begin() + " model" : "model";
  s.blocks.push_back(Paragraph{fmt::format(
      "Measured, per workload and row count M. N*: the smallest tested width from which the fastest cluster "
      "beats the faster one-CTA kernel (staged, global reread or register-resident) at that width and every "
      "larger tested one; 'never' when the largest tested width is not a win. P: the fastest cluster size at "
      "those widths, each P with its widths where it changes with N. Speedup: T(faster one-CTA kernel) / "
      "T(fastest cluster) there. In a 'never' row, P and speedup are those of the widths where a cluster does "
      "win. Notes: wins and losses out of that order, widths whose two timing passes disagree, and the closest "
      "a cluster came where it never wins. Last column: at how many widths the {} picks the measured fastest "
      "P (1: a one-CTA kernel); the charts of Fig. 3 draw both.",
      model)});
  const bool several = d.comparisons.size() > 1;
  std::vector<std::string> head{"workload", "M", "widths tested", "cluster from N >=", "with P =", "speedup",
                                "notes", model + "'s P = fastest"};
  if (several) head.insert(head.begin(), "device");
  Table t;
  t.header = head;
  t.numeric.assign(head.size(), false);
  for (const char* num : {"M", "cluster from N >=", "speedup", "widths tested"})
    t.numeric[std::size_t(std::find(head.begin(), head.end(), num) - head.begin())] = true;
  t.numeric.back() = true;
  for (const auto& c : d.comparisons)
    for (const auto& l : leads(c, pick_variant(c))) {
      std::vector<std::string> row{l.workload,      std::to_string(l.m), measured_cell(l), from_cell(l),
                                   p_cell(l),       speedup_cell(l),     notes_cell(l),    model_cell(l)};
      if (several) row.insert(row.begin(), d.devices[std::size_t(c.device)].tag);
      t.rows.push_back(std::move(row));
    }
  s.blocks.push_back(std::move(t));
  return s;
}

}  // namespace credit::report
