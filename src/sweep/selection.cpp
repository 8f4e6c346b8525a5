#include "sweep/selection.hpp"

#include <algorithm>
#include "model/time_model.hpp"
#include <cmath>

namespace credit {

std::string candidate_label(const std::string& schedule, int p) {
  const ScheduleTraits* t = find_schedule(schedule);
  return t && t->split != Split::OneCta ? schedule + " P=" + std::to_string(p) : schedule;
}

std::string shape_key(const std::string& workload, long long m, long long n) {
  return workload + " " + std::to_string(m) + "x" + std::to_string(n);
}

namespace {

// A label of a candidate that splits the row over a cluster: "cluster P=..", "partial P=..".
bool is_cluster_label(const std::string& label) { return model::is_cluster_candidate(label.substr(0, label.find(' '))); }

struct Verdict {
  std::string fastest;
  double t = 0;
  bool cluster_wins = false, has_both = false;
  double margin = 0;  // |ln(best cluster / best one-CTA)| where has_both
};

Verdict verdict_of(const std::map<std::string, double>& t) {
  Verdict v;
  double best_cluster = INFINITY, best_one = INFINITY;
  for (const auto& [label, ms] : t) {
    if (v.fastest.empty() || ms < v.t) {
      v.fastest = label;
      v.t = ms;
    }
    double& best = is_cluster_label(label) ? best_cluster : best_one;
    best = std::min(best, ms);
  }
  v.has_both = std::isfinite(best_cluster) && std::isfinite(best_one);
  v.cluster_wins = best_cluster < best_one;
  if (v.has_both) v.margin = std::abs(std::log(best_cluster / best_one));
  return v;
}

}  // namespace

std::vector<MeasuredShape> measured_shapes(const ResultsFile& sweep) {
  std::vector<MeasuredShape> out;
  std::map<std::string, size_t> index;
  for (const auto& pt : sweep.points) {
    if (pt.disposition != Disposition::Passed || !(pt.time_ms.median > 0)) continue;
    if (!model::is_candidate_point(pt.workload, pt.schedule, pt.p, pt.n)) continue;
    const std::string key = shape_key(pt.workload, pt.m, pt.n);
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, out.size()).first;
      out.push_back({pt.workload, pt.m, pt.n, {}, {}, "", 0, false, false, false});
    }
    MeasuredShape& s = out[it->second];
    const std::string label = candidate_label(pt.schedule, pt.p);
    s.t_ms[label] = pt.time_ms.median;
    if (pt.repeat_ms > 0) s.repeat_ms[label] = pt.repeat_ms;
  }
  for (auto& s : out) {
    const Verdict v = verdict_of(s.t_ms);
    s.fastest = v.fastest;
    s.t_fastest = v.t;
    s.cluster_wins = v.cluster_wins;
    s.has_both = v.has_both;
    s.margin = v.margin;
    if (s.repeat_ms.size() == s.t_ms.size()) {
      const Verdict r = verdict_of(s.repeat_ms);
      s.tie = r.cluster_wins != v.cluster_wins;
    }
  }
  return out;
}

std::optional<Pick> tuned_pick(const MeasuredShape& s, const std::vector<Pick>& shortlisted) {
  // Every shortlisted label the shape has in its second pass: choose by that; else by the first.
  const bool repeat = std::all_of(shortlisted.begin(), shortlisted.end(), [&](const Pick& k) {
    const std::string label = candidate_label(k.schedule, k.p);
    return !s.t_ms.count(label) || s.repeat_ms.count(label);
  });
  const auto& by = repeat && !s.repeat_ms.empty() ? s.repeat_ms : s.t_ms;
  std::optional<Pick> best;
  double t_best = 0;
  for (const Pick& k : shortlisted) {
    const auto t = by.find(candidate_label(k.schedule, k.p));
    if (t == by.end()) continue;
    if (!best || t->second < t_best) {
      best = k;
      t_best = t->second;
    }
  }
  return best;
}

Pick pick_of(const Prediction& p) {
  Pick k;
  if (p.model == "time" || !p.pick_schedule.empty()) {
    k.schedule = p.pick_schedule;
    k.p = p.pick_p;
    k.cluster_predicted = model::is_cluster_candidate(p.pick_schedule);
    return k;
  }
  k.cluster_predicted = p.best_p.has_value();
  k.schedule = p.best_p ? "cluster" : p.baseline;
  k.p = p.best_p ? *p.best_p : 1;
  return k;
}

SelectionReport judge_selection(const std::vector<MeasuredShape>& shapes, const PickTable& picks) {
  SelectionReport rep;
  std::map<std::string, double> log_sum;
  // (variant, workload, m) -> measured and predicted N* (smallest width where a cluster wins)
  struct NStar {
    std::optional<long long> measured, predicted;
  };
  std::map<std::string, std::map<std::pair<std::string, long long>, NStar>> nstar;
  for (const auto& s : shapes) {
    SelectionRow row;
    row.shape = &s;
    if (!s.repeat_ms.empty()) ++rep.with_repeat;
    rep.ties += s.tie;
    const std::string key = shape_key(s.workload, s.m, s.n);
    for (const auto& [variant, table] : picks) {
      const auto it = table.find(key);
      if (it == table.end()) continue;
      const Pick& pk = it->second;
      row.picks[variant] = pk;
      VariantStats& st = rep.stats[variant];
      const auto t = s.t_ms.find(candidate_label(pk.schedule, pk.p));
      if (t == s.t_ms.end()) {
        ++st.unmeasured_picks;
      } else {
        const double r = t->second / s.t_fastest;
        row.regret[variant] = r - 1;
        ++st.shapes;
        log_sum[variant] += std::log(r);
        if (st.worst.empty() || r - 1 > st.max_regret) {
          st.max_regret = r - 1;
          st.worst = key + ": picks " + candidate_label(pk.schedule, pk.p) + ", fastest " + s.fastest;
        }
        st.over_5pct += r > 1.05;
      }
      if (s.has_both) {
        ++st.judged;
        st.right += pk.cluster_predicted == s.cluster_wins;
        if (!s.tie && !s.repeat_ms.empty()) {
          ++st.judged_outside;
          st.right_outside += pk.cluster_predicted == s.cluster_wins;
          if (pk.cluster_predicted != s.cluster_wins)
            ++(s.margin < std::log(1.02) ? st.wrong_within_2pct
               : s.margin < std::log(1.05) ? st.wrong_2_to_5pct
                                           : st.wrong_over_5pct);
        }
      }
      NStar& ns = nstar[variant][{s.workload, s.m}];
      if (s.cluster_wins && (!ns.measured || s.n < *ns.measured)) ns.measured = s.n;
      if (pk.cluster_predicted && (!ns.predicted || s.n < *ns.predicted)) ns.predicted = s.n;
    }
    rep.rows.push_back(row);
  }
  for (auto& [variant, st] : rep.stats) {
    st.geomean_regret = st.shapes ? std::exp(log_sum[variant] / st.shapes) - 1 : 0;
    std::map<std::string, bool> workload_exact;  // exact at every M
    for (const auto& [group, ns] : nstar[variant]) {
      ++st.n_star_groups;
      st.n_star_exact += ns.measured == ns.predicted;
      auto [it, fresh] = workload_exact.try_emplace(group.first, true);
      it->second = it->second && ns.measured == ns.predicted;
    }
    st.n_star_workloads = static_cast<int>(workload_exact.size());
    for (const auto& [w, exact] : workload_exact) st.n_star_workloads_exact += exact;
  }
  return rep;
}

}  // namespace credit
