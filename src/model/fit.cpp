#include "model/fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>
#include <stdexcept>

#include "model/time_model.hpp"

namespace credit::model {

namespace {

constexpr int kParams = 24;
using Vec = std::array<double, kParams>;

Vec to_logs(const TimeModelParams& p) {
  return {std::log(p.cta_us), std::log(p.stage_us), std::log(p.cluster_us), std::log(p.barrier_scale),
          std::log(p.split_cta_gbps), std::log(p.reread_cta_gbps), std::log(p.l2_share), std::log(p.l2_gbps),
          std::log(p.register_cta_gbps), std::log(p.staging_us), std::log(p.col_gbps), std::log(p.sm_work_scale),
          std::log(p.serial_share), std::log(p.serial_power), std::log(p.partial_cta_gbps),
          std::log(p.col_exposed_share), std::log(p.col_exposed_power),
          std::log(p.fixed_exposed_share), std::log(p.work_exposed_share),
          std::log(std::max(p.cluster_gain, 1e-3)),  // a file without it (0) starts the descent near 0
          std::log(std::max(p.partial_col_stream, 1e-3)),
          std::log(std::max(p.partial_probe_power, 1e-3)), std::log(std::max(p.register_probe_power, 1e-3)),
          std::log(std::max(p.staging_exposed_share, 1e-3))};
}

TimeModelParams from_logs(const Vec& v) {
  TimeModelParams p;
  p.cta_us = std::exp(v[0]);
  p.stage_us = std::exp(v[1]);
  p.cluster_us = std::exp(v[2]);
  p.barrier_scale = std::exp(v[3]);
  p.split_cta_gbps = std::exp(v[4]);
  p.reread_cta_gbps = std::exp(v[5]);
  p.l2_share = std::min(1.0, std::exp(v[6]));  // a share of the L2 cannot exceed it
  // Finite bounds far above any real rate keep the constants writable as JSON numbers.
  p.l2_gbps = std::min(1e5, std::exp(v[7]));
  p.register_cta_gbps = std::min(1e5, std::exp(v[8]));
  p.staging_us = std::exp(v[9]);
  p.col_gbps = std::min(1e5, std::exp(v[10]));
  p.sm_work_scale = std::exp(v[11]);
  p.serial_share = std::min(1.0, std::exp(v[12]));  // at most all of it
  p.serial_power = std::min(8.0, std::exp(v[13]));
  p.partial_cta_gbps = std::min(1e5, std::exp(v[14]));
  p.col_exposed_share = std::min(1e3, std::exp(v[15]));
  p.col_exposed_power = std::min(8.0, std::exp(v[16]));
  p.fixed_exposed_share = std::min(1.0, std::exp(v[17]));  // at most all of it
  p.work_exposed_share = std::min(1.0, std::exp(v[18]));  // at most all of it
  p.cluster_gain = std::min(0.5, std::exp(v[19]));
  p.partial_col_stream = std::min(1.0, std::exp(v[20]));  // a share
  p.partial_probe_power = std::min(1.0, std::exp(v[21]));  // at most the whole factor
  p.register_probe_power = std::min(1.0, std::exp(v[22]));
  p.staging_exposed_share = std::min(1.0, std::exp(v[23]));  // at most all of it
  p.split_cta_gbps = std::min(1e5, p.split_cta_gbps);
  p.reread_cta_gbps = std::min(1e5, p.reread_cta_gbps);
  return p;
}

}  // namespace

std::vector<FitSample> fit_samples(const ResultsFile& sweep,
                                   const std::function<const StaticFigures*(const std::string&)>& figures_of) {
  std::vector<FitSample> out;
  for (const auto& pt : sweep.points) {
    if (pt.disposition != Disposition::Passed || !(pt.time_ms.median > 0)) continue;
    if (!is_candidate_point(pt.workload, pt.schedule, pt.p, pt.n)) continue;
    // split_global's time rests on its exchange constants, which are fitted apart on a wide-row bench:
    // fitted with the shared constants, its error would move theirs.
    if (const ScheduleTraits* t = find_schedule(pt.schedule); t && t->split == Split::Spread) continue;
    const StaticFigures* f = figures_of(pt.workload);
    if (!f) continue;
    out.push_back({f, pt.workload, pt.m, pt.n, pt.schedule, pt.p, pt.time_ms.median, nullptr});
  }
  return out;
}

namespace {

// Log errors of every sample, in order; `legal` (if given) says which the model can time at all.
std::vector<double> log_errors(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p,
                               std::vector<bool>* legal = nullptr) {
  if (samples.empty()) throw std::invalid_argument("no measured kernel points to fit or judge the model on");
  const CopyLine copy = copy_line(cal.copies);
  // A sample's own calibration (of the machine that measured it), with its own copy line: few distinct ones,
  // looked up once each.
  std::vector<std::pair<const Calibration*, CopyLine>> own;
  auto copy_of = [&](const Calibration* c) {
    for (const auto& [k, line] : own)
      if (k == c) return line;
    own.emplace_back(c, copy_line(c->copies));
    return own.back().second;
  };
  std::vector<double> e;
  if (legal) legal->clear();
  for (const auto& s : samples) {
    const CandidateTime c = s.calibration
                                ? candidate_time(*s.figures, s.workload, *s.calibration, p, copy_of(s.calibration),
                                                 s.schedule, s.p, s.m, s.n)
                                : candidate_time(*s.figures, s.workload, cal, p, copy, s.schedule, s.p, s.m, s.n);
    const bool timed = c.legal && c.t_ms > 0;
    // A measured point the model calls illegal is a model error, counted as a factor of e^2.
    e.push_back(timed ? std::log(c.t_ms / s.t_ms) : 2.0);
    if (legal) legal->push_back(timed);
  }
  return e;
}

}  // namespace

double rms_log_error(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p) {
  double sum = 0;
  for (double e : log_errors(samples, cal, p)) sum += e * e;
  return std::sqrt(sum / double(samples.size()));
}

namespace {

// Index of each sample's shape (workload, M, N), the samples per shape and the shape's fastest
// measured time: computed once per fit.
struct ShapeGroups {
  std::vector<int> of;
  std::vector<int> size;
  std::vector<double> fastest_ms;
};

ShapeGroups group_by_shape(const std::vector<FitSample>& samples) {
  ShapeGroups g;
  std::map<std::tuple<std::string, long long, long long>, int> index;
  for (const auto& s : samples) {
    const auto [it, added] = index.try_emplace({s.workload, s.m, s.n}, int(g.size.size()));
    if (added) {
      g.size.push_back(0);
      g.fastest_ms.push_back(s.t_ms);
    }
    const auto i = size_t(it->second);
    g.of.push_back(it->second);
    ++g.size[i];
    g.fastest_ms[i] = std::min(g.fastest_ms[i], s.t_ms);
  }
  return g;
}

double centred_loss(const std::vector<FitSample>& samples, const ShapeGroups& g, const std::vector<double>& e) {
  std::vector<double> total(g.size.size(), 0.0);
  for (size_t i = 0; i < samples.size(); ++i) total[size_t(g.of[i])] += e[i];
  double sum = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const double centred = e[i] - total[size_t(g.of[i])] / g.size[size_t(g.of[i])];
    sum += centred * centred + kAbsoluteWeight * e[i] * e[i];
  }
  return std::sqrt(sum / double(samples.size()));
}

double selection_loss(const std::vector<FitSample>& samples, const ShapeGroups& g, const Calibration& cal,
                      const TimeModelParams& p) {
  return centred_loss(samples, g, log_errors(samples, cal, p));
}

// The soft regret of every shape, averaged; a candidate the model calls illegal is never picked.
double mean_soft_regret(const std::vector<FitSample>& samples, const ShapeGroups& g, const std::vector<double>& e,
                        const std::vector<bool>& legal) {
  const size_t shapes = g.size.size();
  std::vector<double> fastest_pred(shapes, INFINITY), weight(shapes, 0.0), weighted(shapes, 0.0);
  auto log_pred = [&](size_t i) { return e[i] + std::log(samples[i].t_ms); };
  for (size_t i = 0; i < samples.size(); ++i)
    if (legal[i]) fastest_pred[size_t(g.of[i])] = std::min(fastest_pred[size_t(g.of[i])], log_pred(i));
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!legal[i]) continue;
    const auto s = size_t(g.of[i]);
    const double w = std::exp(-(log_pred(i) - fastest_pred[s]) / kRegretTemperature);
    weight[s] += w;
    weighted[s] += w * std::log(samples[i].t_ms / g.fastest_ms[s]);
  }
  double sum = 0;
  size_t judged = 0;
  for (size_t s = 0; s < shapes; ++s)
    if (weight[s] > 0) {
      sum += weighted[s] / weight[s];
      ++judged;
    }
  return judged ? sum / double(judged) : 0.0;
}

double regret_loss(const std::vector<FitSample>& samples, const ShapeGroups& g, const Calibration& cal,
                   const TimeModelParams& p) {
  std::vector<bool> legal;
  const std::vector<double> e = log_errors(samples, cal, p, &legal);
  const double centred = centred_loss(samples, g, e);
  return mean_soft_regret(samples, g, e, legal) + kRegretAnchor * centred * centred;
}

}  // namespace

double selection_loss(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p) {
  return selection_loss(samples, group_by_shape(samples), cal, p);
}

double soft_regret_loss(const std::vector<FitSample>& samples, const Calibration& cal, const TimeModelParams& p) {
  return regret_loss(samples, group_by_shape(samples), cal, p);
}

FitLoss parse_fit_loss(const std::string& name) {
  if (name == "centred") return FitLoss::Centred;
  if (name == "regret") return FitLoss::Regret;
  throw std::invalid_argument("'" + name + "': expected centred or regret");
}

const char* fit_loss_name(FitLoss loss) { return loss == FitLoss::Regret ? "regret" : "centred"; }

namespace {

// One Nelder-Mead descent with the standard coefficients, restarted twice around its best point.
Vec descend(const std::function<double(const Vec&)>& loss, Vec best, int iterations) {
  double best_f = loss(best);
  for (int restart = 0; restart < 3; ++restart) {
    std::array<Vec, kParams + 1> x;
    std::array<double, kParams + 1> fx;
    x[0] = best;
    for (int i = 0; i < kParams; ++i) {
      x[i + 1] = best;
      x[i + 1][i] += 0.5;
    }
    for (int i = 0; i <= kParams; ++i) fx[i] = loss(x[i]);
    for (int it = 0; it < iterations / 3; ++it) {
      std::array<int, kParams + 1> idx;
      for (int i = 0; i <= kParams; ++i) idx[i] = i;
      std::sort(idx.begin(), idx.end(), [&](int a, int b) { return fx[a] < fx[b]; });
      const int lo = idx[0], hi = idx[kParams], second = idx[kParams - 1];
      if (fx[hi] - fx[lo] < 1e-9) break;
      Vec centre{};
      for (int i = 0; i <= kParams; ++i)
        if (i != hi)
          for (int d = 0; d < kParams; ++d) centre[d] += x[i][d] / kParams;
      auto along = [&](double t) {
        Vec v;
        for (int d = 0; d < kParams; ++d) v[d] = centre[d] + t * (x[hi][d] - centre[d]);
        return v;
      };
      const Vec r = along(-1.0);
      const double fr = loss(r);
      if (fr < fx[lo]) {
        const Vec e = along(-2.0);
        const double fe = loss(e);
        if (fe < fr) { x[hi] = e; fx[hi] = fe; } else { x[hi] = r; fx[hi] = fr; }
      } else if (fr < fx[second]) {
        x[hi] = r;
        fx[hi] = fr;
      } else {
        const Vec c = along(fr < fx[hi] ? -0.5 : 0.5);
        const double fc = loss(c);
        if (fc < std::min(fr, fx[hi])) {
          x[hi] = c;
          fx[hi] = fc;
        } else {  // shrink towards the best vertex
          for (int i = 0; i <= kParams; ++i) {
            if (i == lo) continue;
            for (int d = 0; d < kParams; ++d) x[i][d] = x[lo][d] + 0.5 * (x[i][d] - x[lo][d]);
            fx[i] = loss(x[i]);
          }
        }
      }
    }
    for (int i = 0; i <= kParams; ++i)
      if (fx[i] < best_f) {
        best_f = fx[i];
        best = x[i];
      }
  }
  return best;
}

}  // namespace

void set_rule_switches(TimeModelParams& p, const TimeModelParams& from) {
  p.cluster_probe_power = from.cluster_probe_power;
  p.first_wave_serial_share = from.first_wave_serial_share;
  p.tail_wave_share = from.tail_wave_share;
  p.global_exchange_us = from.global_exchange_us;
  p.global_exchange_split_us = from.global_exchange_split_us;
  p.register_probe_wave_power = from.register_probe_wave_power;
}

TimeModelParams fit_start() {
  TimeModelParams p;
  p.cta_us = 1.431;
  p.staging_us = 0.5;
  p.stage_us = 0.01053;
  p.cluster_us = 1.115;
  p.barrier_scale = 1.051;
  p.split_cta_gbps = 28.42;
  p.reread_cta_gbps = 60;
  p.register_cta_gbps = 28.42;
  p.partial_cta_gbps = 28.42;
  p.l2_share = 0.3013;
  p.l2_gbps = 1e+05;
  p.col_gbps = 100;
  p.sm_work_scale = 1;
  p.serial_share = 0.5;
  p.serial_power = 1;
  p.col_exposed_share = 4;
  p.col_exposed_power = 2;
  p.fixed_exposed_share = 0.5;
  p.work_exposed_share = 0.2;
  p.cluster_gain = 0.02;
  p.partial_col_stream = 0.02;
  p.partial_probe_power = 0.5;
  p.register_probe_power = 0.5;
  p.staging_exposed_share = 0.5;
  set_rule_switches(p, h200_params());  // the built-in form: the fit refits its constants, not its form
  p.fitted_on = "the fit's starting point";
  return p;
}

HeldConstant parse_held_constant(const std::string& spec) {
  const auto eq = spec.find('=');
  const TimeModelField* field = find_time_model_field(spec.substr(0, eq));
  if (eq == std::string::npos || !field)
    throw std::invalid_argument("'" + spec + "': expected NAME=VALUE with NAME a time model constant");
  const std::string text = spec.substr(eq + 1);
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value) || value < 0 || (field->rate && value <= 0))
    throw std::invalid_argument("'" + spec + "': the value must be a finite number >= 0 (> 0 for a rate)");
  return {field, value};
}

TimeModelParams fit_params(const std::vector<FitSample>& samples, const Calibration& cal,
                           const TimeModelParams& start, const std::vector<HeldConstant>& held, int iterations,
                           FitLoss kind) {
  const ShapeGroups groups = group_by_shape(samples);
  // A held constant's coordinate stays in the simplex but moves nothing: the loss never sees it.
  auto constants = [&](const Vec& v) {
    TimeModelParams p = from_logs(v);
    set_rule_switches(p, start);  // not fitted: the loss sees the model the fit returns
    for (const auto& h : held) p.*(h.field->member) = h.value;
    return p;
  };
  const std::function<double(const Vec&)> loss = [&](const Vec& v) {
    const TimeModelParams p = constants(v);
    return kind == FitLoss::Regret ? regret_loss(samples, groups, cal, p) : selection_loss(samples, groups, cal, p);
  };
  // Nelder-Mead finds a local minimum: descend from the start and from starts with slower and
  // faster CTAs and larger fixed costs, and keep the best.
  Vec best = to_logs(start);
  double best_f = loss(best);
  for (const auto& [rate, fixed] : std::vector<std::pair<double, double>>{{1, 1}, {0.5, 1}, {2, 1}, {1, 2}}) {
    Vec v = to_logs(start);
    v[4] += std::log(rate);
    v[5] += std::log(rate);
    v[8] += std::log(rate);
    v[14] += std::log(rate);
    v[0] += std::log(fixed);
    v[2] += std::log(fixed);
    v = descend(loss, v, iterations);
    const double f = loss(v);
    if (f < best_f) {
      best_f = f;
      best = v;
    }
  }
  TimeModelParams out = from_logs(best);
  set_rule_switches(out, start);
  // A constant no sample exercises is not identified by the fit: keep its starting value
  // (column parameters: only workloads that read them, e.g. layernorm's gamma and beta).
  if (std::none_of(samples.begin(), samples.end(), [](const FitSample& s) { return s.figures->col_bytes > 0; })) {
    out.col_gbps = start.col_gbps;
    out.col_exposed_share = start.col_exposed_share;
    out.col_exposed_power = start.col_exposed_power;
    out.partial_col_stream = start.partial_col_stream;
  }
  if (std::none_of(samples.begin(), samples.end(), [](const FitSample& s) { return partial_ctas_of(s.schedule) > 0; })) {
    out.partial_cta_gbps = start.partial_cta_gbps;
    out.partial_probe_power = start.partial_probe_power;
  }
  if (std::none_of(samples.begin(), samples.end(), [](const FitSample& s) {
        const ScheduleTraits* t = find_schedule(s.schedule);
        return t && t->register_family >= 0;
      }))
    out.register_probe_power = start.register_probe_power;
  if (cal.kernel_probes.empty()) {
    out.partial_probe_power = start.partial_probe_power;
    out.register_probe_power = start.register_probe_power;
  }
  if (cal.elem_ns.empty()) {
    out.sm_work_scale = start.sm_work_scale;
    out.serial_share = start.serial_share;
    out.serial_power = start.serial_power;
    out.work_exposed_share = start.work_exposed_share;
  }
  for (const auto& h : held) out.*(h.field->member) = h.value;  // after the resets above: a hold wins
  return out;
}

}  // namespace credit::model
