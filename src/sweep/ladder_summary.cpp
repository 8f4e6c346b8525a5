#include "sweep/ladder_summary.hpp"

#include <set>
#include <tuple>

#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"

namespace credit {

namespace {

bool faster(const SweepPoint* a, const SweepPoint& b) { return !a || b.time_ms.median < a->time_ms.median; }

// "grid+reload_input" -> {"grid", "reload_input"}
std::pair<std::string, std::string> split_variant(const std::string& v) {
  const auto plus = v.find('+');
  if (plus == std::string::npos) return {v, ""};
  return {v.substr(0, plus), v.substr(plus + 1)};
}

}  // namespace

std::vector<LadderShapeSummary> summarize_ladder(const ResultsFile& r) {
  std::set<std::tuple<std::string, long long, long long>> shapes;
  for (const auto& p : r.points) shapes.insert({p.workload, p.n, p.m});
  std::vector<LadderShapeSummary> out;
  for (const auto& [w, n, m] : shapes) {
    LadderShapeSummary s;
    s.workload = w;
    s.m = m;
    s.n = n;
    auto of_shape = [&](const SweepPoint& p) { return p.workload == w && p.n == n && p.m == m; };
    for (const RungDef& d : kLadderRungs) {
      RungResult rr;
      rr.def = &d;
      for (const auto& p : r.points) {
        if (!of_shape(p) || p.schedule != d.schedule || p.submission != d.submission || p.variant != d.variant) continue;
        ++rr.total;
        if (p.disposition == Disposition::Passed) {
          ++rr.passed;
          if (faster(rr.best, p)) rr.best = &p;
        } else {
          rr.failures.push_back("P=" + std::to_string(p.p) + ": " + disposition_name(p.disposition) +
                                (p.reason.empty() ? "" : ": " + p.reason));
        }
      }
      if (rr.total && rr.best && faster(s.best, *rr.best)) s.best = rr.best;
      s.rungs.push_back(std::move(rr));
    }
    std::map<std::tuple<std::string, int, std::string>, SwitchPenalty> pen;
    for (const auto& p : r.points) {
      if (!of_shape(p) || p.disposition != Disposition::Passed) continue;
      if (p.schedule == kCopySchedule || p.schedule == kEmptyKernelSchedule) {
        s.floors[p.schedule + "/" + p.submission] = &p;
        continue;
      }
      if (p.schedule != "megakernel") continue;
      const auto [barrier, switches] = split_variant(p.variant);
      if (barrier != "grid" && barrier != "row") continue;  // "auto": the ladder rung
      SwitchPenalty& sp = pen[{barrier, p.p, p.submission}];
      sp.barrier = barrier;
      sp.p = p.p;
      sp.submission = p.submission;
      if (switches.empty()) sp.base_ms = p.time_ms.median;
      else sp.extra_ms[switches] = p.time_ms.median;
    }
    for (auto& [k, sp] : pen) {
      if (sp.base_ms <= 0 || sp.extra_ms.empty()) continue;  // a penalty needs both in the same file
      for (auto& [name, t] : sp.extra_ms) t -= sp.base_ms;
      s.switches.push_back(sp);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace credit
