#include "model/fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <thread>
#include <tuple>
#include <stdexcept>

#include "model/time_model.hpp"

namespace credit::model {

namespace {

// The constants a fit frees, in the order of the descent's vector, each with the largest value it may take (a share
// cannot exceed the whole, a rate beyond 1e5 GB/s is no limit, a power beyond 8 no different). The other constants of
// TimeModelParams are set by a rule each and held through the descent.
struct FittedConstant {
  double TimeModelParams::*member;
  double cap;
};
constexpr double kUncapped = 1e300;
constexpr FittedConstant kFitted[] = {
    {&TimeModelParams::cta_us, kUncapped},          {&TimeModelParams::stage_us, kUncapped},
    {&TimeModelParams::cluster_us, kUncapped},      {&TimeModelParams::barrier_scale, kUncapped},
    {&TimeModelParams::split_cta_gbps, 1e5},        {&TimeModelParams::reread_cta_gbps, 1e5},
    {&TimeModelParams::l2_share, 1.0},              {&TimeModelParams::l2_gbps, 1e5},
    {&TimeModelParams::register_cta_gbps, 1e5},     {&TimeModelParams::staging_us, kUncapped},
    {&TimeModelParams::col_gbps, 1e5},              {&TimeModelParams::sm_work_scale, kUncapped},
    {&TimeModelParams::serial_share, 1.0},          {&TimeModelParams::serial_power, 8.0},
    {&TimeModelParams::partial_cta_gbps, 1e5},      {&TimeModelParams::col_exposed_share, 1e3},
    {&TimeModelParams::col_exposed_power, 8.0},     {&TimeModelParams::fixed_exposed_share, 1.0},
};
constexpr int kParams = int(std::size(kFitted));
// Positions in the vector of the starts' alternatives (fit_params): the CTAs' stream rates and the fixed costs.
constexpr int kRateAt[] = {4, 5, 8, 14};
constexpr int kFixedAt[] = {0, 2};
using Vec = std::array<double, kParams>;

Vec to_logs(const TimeModelParams& p) {
  Vec v{};
  for (int i = 0; i < kParams; ++i) v[size_t(i)] = std::log(p.*kFitted[i].member);
  return v;
}

// The fitted constants of v on `rest` (the constants set by rule).
TimeModelParams from_logs(const Vec& v, const TimeModelParams& rest) {
  TimeModelParams p = rest;
  for (int i = 0; i < kParams; ++i) p.*kFitted[i].member = std::min(kFitted[i].cap, std::exp(v[size_t(i)]));
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
  // A sample's own calibration (of the machine that measured it), with its own copy line: few distinct ones, looked
  // up before the threads start, which then only read them.
  std::map<const Calibration*, CopyLine> copy_of{{&cal, copy_line(cal.copies)}};
  for (const auto& s : samples)
    if (s.calibration && !copy_of.count(s.calibration)) copy_of.emplace(s.calibration, copy_line(s.calibration->copies));
  std::vector<double> e(samples.size());
  std::vector<char> timed(samples.size());
  auto predict = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const FitSample& s = samples[i];
      const Calibration& c = s.calibration ? *s.calibration : cal;
      const CandidateTime t = candidate_time(*s.figures, s.workload, c, p, copy_of.at(&c), s.schedule, s.p, s.m, s.n);
      timed[i] = t.legal && t.t_ms > 0;
      // A measured point the model calls illegal is a model error, counted as a factor of e^2.
      e[i] = timed[i] ? std::log(t.t_ms / s.t_ms) : 2.0;
    }
  };
  // Each sample's error is its own, so the threads change no figure: a fit is the same on any machine, only faster
  // where it has cores (the loss predicts every sample thousands of times).
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16);
  const size_t chunk = (samples.size() + threads - 1) / threads;
  if (threads == 1 || samples.size() < 4096) {
    predict(0, samples.size());
  } else {
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> failed(threads);
    for (size_t t = 1, begin = chunk; begin < samples.size(); ++t, begin += chunk)
      pool.emplace_back([&, t, begin] {
        try {
          predict(begin, std::min(samples.size(), begin + chunk));
        } catch (...) {
          failed[t] = std::current_exception();
        }
      });
    try {
      predict(0, chunk);
    } catch (...) {
      failed[0] = std::current_exception();
    }
    for (auto& t : pool) t.join();
    for (const auto& f : failed)
      if (f) std::rethrow_exception(f);
  }
  if (legal) legal->assign(timed.begin(), timed.end());
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

bool is_fitted_constant(const TimeModelField& field) {
  return std::any_of(std::begin(kFitted), std::end(kFitted),
                     [&](const FittedConstant& c) { return c.member == field.member; });
}

TimeModelParams fit_start() {
  // The set-by-rule constants are the built-in ones: the fit refits its constants, not the model's form.
  TimeModelParams p = h200_params();
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
    TimeModelParams p = from_logs(v, start);  // the set-by-rule constants: the start's
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
    for (int i : kRateAt) v[size_t(i)] += std::log(rate);
    for (int i : kFixedAt) v[size_t(i)] += std::log(fixed);
    v = descend(loss, v, iterations);
    const double f = loss(v);
    if (f < best_f) {
      best_f = f;
      best = v;
    }
  }
  TimeModelParams out = from_logs(best, start);
  // A constant no sample exercises is not identified by the fit: keep its starting value
  // (column parameters: only workloads that read them, e.g. layernorm's gamma and beta).
  if (std::none_of(samples.begin(), samples.end(), [](const FitSample& s) { return s.figures->col_bytes > 0; })) {
    out.col_gbps = start.col_gbps;
    out.col_exposed_share = start.col_exposed_share;
    out.col_exposed_power = start.col_exposed_power;
  }
  if (std::none_of(samples.begin(), samples.end(), [](const FitSample& s) { return partial_ctas_of(s.schedule) > 0; }))
    out.partial_cta_gbps = start.partial_cta_gbps;
  if (cal.elem_ns.empty()) {
    out.sm_work_scale = start.sm_work_scale;
    out.serial_share = start.serial_share;
    out.serial_power = start.serial_power;
  }
  for (const auto& h : held) out.*(h.field->member) = h.value;  // after the resets above: a hold wins
  return out;
}

}  // namespace credit::model
