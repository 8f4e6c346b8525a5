#include "sweep/sweep_summary.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "model/time_model.hpp"
#include "sweep/log_mean.hpp"
#include "sweep/selection.hpp"

namespace credit {

namespace {

const SweepPoint* find_point(const ResultsFile& r, const Prediction& pr, const std::string& schedule, int p) {
  for (const auto& pt : r.points)
    if (pt.workload == pr.workload && pt.m == pr.m && pt.n == pr.n && pt.schedule == schedule && pt.p == p &&
        pt.disposition == Disposition::Passed)
      return &pt;
  return nullptr;
}

ShapeVerdict* shape_of(std::vector<ShapeVerdict>& v, const Prediction& pr) {
  for (auto& s : v)
    if (s.workload == pr.workload && s.m == pr.m && s.n == pr.n) return &s;
  return nullptr;
}

}  // namespace

SweepSummary summarize_sweep(const ResultsFile& r) {
  SweepSummary sum;
  for (const auto& pr : r.predictions) {
    ShapeVerdict* s = shape_of(sum.shapes, pr);
    if (!s) {
      const SweepPoint* base = find_point(r, pr, pr.baseline, 1);
      if (!base) continue;
      ShapeVerdict v;
      v.workload = pr.workload;
      v.m = pr.m;
      v.n = pr.n;
      v.baseline = pr.baseline;
      v.t_baseline_ms = base->time_ms.median;
      for (const auto& pt : r.points)
        if (pt.workload == pr.workload && pt.m == pr.m && pt.n == pr.n && pt.schedule == "cluster" &&
            pt.disposition == Disposition::Passed && (!v.best_p || pt.time_ms.median < v.t_best_ms)) {
          v.best_p = pt.p;
          v.t_best_ms = pt.time_ms.median;
        }
      v.measured_profitable = v.best_p && v.t_best_ms < v.t_baseline_ms;
      sum.shapes.push_back(v);
      s = &sum.shapes.back();
    }
    s->predicted_p[pr.model] = pr.best_p;
  }
  for (const auto& s : sum.shapes) {
    auto it = std::find_if(sum.workloads.begin(), sum.workloads.end(),
                           [&](const WorkloadSummary& w) { return w.workload == s.workload; });
    if (it == sum.workloads.end()) {
      sum.workloads.push_back({s.workload, {}, {}, {}, 0});
      it = sum.workloads.end() - 1;
    }
    ++it->shapes;
    ++sum.total;
    if (s.measured_profitable && (!it->measured_n_star || s.n < *it->measured_n_star)) it->measured_n_star = s.n;
    for (const auto& [variant, p] : s.predicted_p) {
      const bool predicted = p.has_value();
      if (predicted == s.measured_profitable) {
        ++it->correct[variant];
        ++sum.correct[variant];
      } else {
        it->correct[variant] += 0;  // keep the variant listed
        sum.correct[variant] += 0;
      }
      auto& ns = it->predicted_n_star[variant];
      if (predicted && (!ns || s.n < *ns)) ns = s.n;
    }
  }
  for (const auto& w : sum.workloads)
    for (const auto& [variant, ns] : w.predicted_n_star) sum.exact_n_star[variant] += ns == w.measured_n_star;
  return sum;
}

SpeedupTable speedups(const ResultsFile& sweep, const std::vector<ResultsFile>& others) {
  std::map<long long, std::map<std::string, LogMean>> by_n;
  std::map<std::pair<long long, long long>, std::map<std::string, LogMean>> by_shape;
  for (const auto& v : summarize_sweep(sweep).shapes) {
    if (!v.best_p) continue;
    std::map<std::string, double> base{{"cuda", v.t_baseline_ms}};
    for (const auto& f : others)
      for (const auto& pt : f.points)
        if (pt.workload == v.workload && pt.m == v.m && pt.n == v.n && pt.disposition == Disposition::Passed &&
            pt.time_ms.median > 0)
          base[pt.schedule] = pt.time_ms.median;
    double best = INFINITY;
    auto add = [&](const std::string& name, double t) {
      by_n[v.n][name].add(t / v.t_best_ms);
      by_shape[{v.m, v.n}][name].add(t / v.t_best_ms);
    };
    for (const auto& [name, t] : base) {
      add(name, t);
      best = std::min(best, t);
    }
    add("best", best);
  }
  SpeedupTable out;
  for (const auto& [n, by] : by_n)
    for (const auto& [name, m] : by) {
      out.geomean[n][name] = m.geomean();
      out.count[n][name] = int(m.n);
    }
  for (const auto& [mn, by] : by_shape)
    for (const auto& [name, m] : by) {
      out.shape_geomean[mn][name] = m.geomean();
      out.shape_count[mn][name] = int(m.n);
    }
  return out;
}

bool is_peer_schedule(const std::string& schedule) {
  return schedule == "torch_compile" || schedule == "triton" || schedule == "torch_eager";
}

std::size_t peer_points_at_shapes(const ResultsFile& sweep, const ResultsFile& peers) {
  std::set<std::tuple<std::string, long long, long long>> shapes;
  for (const auto& p : sweep.points) shapes.emplace(p.workload, p.m, p.n);
  std::size_t n = 0;
  for (const auto& p : peers.points)
    n += is_peer_schedule(p.schedule) && p.disposition == Disposition::Passed && p.time_ms.median > 0 &&
         shapes.count({p.workload, p.m, p.n});
  return n;
}

std::vector<ExchangeComparison> compare_exchanges(const ResultsFile& r) {
  std::vector<ExchangeComparison> out;
  auto find = [&](const SweepPoint& p) {
    return std::find_if(out.begin(), out.end(),
                        [&](const ExchangeComparison& c) { return c.workload == p.workload && c.m == p.m && c.n == p.n; });
  };
  for (const auto& p : r.points)
    if ((p.schedule == "megakernel" || p.schedule == "local_fusion") && find(p) == out.end())
      out.push_back({p.workload, p.m, p.n, {}, {}, {}});
  for (const auto& p : r.points) {
    if (p.disposition != Disposition::Passed || p.submission != "direct" || !(p.variant.empty() || p.variant == "auto"))
      continue;
    const auto it = find(p);
    if (it == out.end()) continue;
    std::optional<BestSplit>* slot = p.schedule == "cluster"        ? &it->cluster
                                     : p.schedule == "megakernel"   ? &it->megakernel
                                     : p.schedule == "local_fusion" ? &it->local_fusion
                                                                    : nullptr;
    if (slot && (!*slot || p.time_ms.median < (*slot)->ms)) *slot = BestSplit{p.p, p.time_ms.median};
  }
  return out;
}

PeerTable credit_vs_peers(const ResultsFile& sweep, const std::vector<ResultsFile>& peers) {
  PeerTable t;
  std::map<std::string, PeerRatio> by_shape;
  auto key = [](const SweepPoint& p) { return p.workload + "/" + std::to_string(p.m) + "/" + std::to_string(p.n); };
  auto passed = [](const SweepPoint& p) { return p.disposition == Disposition::Passed && p.time_ms.median > 0; };
  std::map<std::string, double> copy_ms;  // credit's copy kernel of each shape's bytes
  for (const auto& p : sweep.points) {
    if (p.schedule == "copy" && p.time_ms.median > 0) copy_ms[key(p)] = p.time_ms.median;
    if (!passed(p) || !model::is_candidate_point(p.workload, p.schedule, p.p, p.n)) continue;
    PeerRatio& r = by_shape[key(p)];
    if (r.t_credit == 0 || p.time_ms.median < r.t_credit) {
      r.workload = p.workload;
      r.m = p.m;
      r.n = p.n;
      r.t_credit = p.time_ms.median;
      r.credit_schedule = candidate_label(p.schedule, p.p);
      if (sweep.copy_gbps > 0 && p.compulsory_bytes > 0) r.t_bandwidth = p.compulsory_bytes / (sweep.copy_gbps * 1e6);
    }
  }
  for (const auto& f : peers)
    for (const auto& p : f.points) {
      if (!passed(p) || p.schedule == "torch_eager") continue;  // eager is no peer of a fused kernel
      const auto it = by_shape.find(key(p));
      if (it == by_shape.end()) continue;
      if (it->second.t_peer == 0 || p.time_ms.median < it->second.t_peer) {
        it->second.t_peer = p.time_ms.median;
        it->second.peer_schedule = p.schedule;
      }
    }
  for (auto& [k, r] : by_shape)
    if (const auto c = copy_ms.find(k); c != copy_ms.end()) r.t_copy = c->second;
  using Cell = std::pair<long long, long long>;
  std::map<Cell, LogMean> ratio, ceiling, copy;
  for (const auto& [k, r] : by_shape) {
    if (r.t_peer <= 0) continue;
    t.shapes.push_back(r);
    const Cell mn{r.m, r.n};
    const double x = r.t_peer / r.t_credit;
    ratio[mn].add(x);
    t.worst[mn] = t.worst.count(mn) ? std::min(t.worst[mn], x) : x;
    if (r.t_bandwidth > 0) ceiling[mn].add(r.t_peer / r.t_bandwidth);
    if (r.t_copy > 0) copy[mn].add(r.t_peer / r.t_copy);
  }
  for (const auto& [mn, m] : ratio) {
    t.geomean[mn] = m.geomean();
    t.count[mn] = int(m.n);
    // Only where every workload of the cell has the figure: a mean over fewer would not match the cell's.
    if (ceiling[mn].n == m.n) t.ceiling[mn] = ceiling[mn].geomean();
    if (copy[mn].n == m.n) t.copy[mn] = copy[mn].geomean();
  }
  return t;
}

CopyFractionTable credit_vs_copy(const ResultsFile& sweep) {
  auto key = [](const SweepPoint& p) { return p.workload + "/" + std::to_string(p.m) + "/" + std::to_string(p.n); };
  std::map<std::string, double> copy_ms;
  std::map<std::string, const SweepPoint*> fastest;
  for (const auto& p : sweep.points) {
    if (p.disposition != Disposition::Passed || p.time_ms.median <= 0) continue;
    if (p.schedule == "copy") copy_ms[key(p)] = p.time_ms.median;
    if (!model::is_candidate_point(p.workload, p.schedule, p.p, p.n)) continue;
    const SweepPoint*& f = fastest[key(p)];
    if (!f || p.time_ms.median < f->time_ms.median) f = &p;
  }
  CopyFractionTable t;
  std::map<std::pair<long long, long long>, LogMean> mean;
  for (const auto& [k, p] : fastest) {
    const auto c = copy_ms.find(k);
    if (c == copy_ms.end()) continue;
    const std::pair<long long, long long> mn{p->m, p->n};
    const double x = c->second / p->time_ms.median;
    mean[mn].add(x);
    if (!t.lowest.count(mn) || x < t.lowest[mn].fraction)
      t.lowest[mn] = {p->workload, candidate_label(p->schedule, p->p), x};
  }
  for (const auto& [mn, m] : mean) {
    t.geomean[mn] = m.geomean();
    t.count[mn] = int(m.n);
  }
  return t;
}

}  // namespace credit
