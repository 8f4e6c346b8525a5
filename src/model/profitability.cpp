#include "model/profitability.hpp"

#include <algorithm>
#include <stdexcept>

namespace credit::model {

namespace {

constexpr double kMsPerS = 1e3;

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// Median of the P = 2 entry, else of the smallest P present.
double median_at_p2(const std::map<int, Stat>& by_p, const char* field) {
  require(!by_p.empty(), std::string("calibration lacks ") + field);
  const auto it = by_p.count(2) ? by_p.find(2) : by_p.begin();
  require(it->second.median > 0, std::string("calibration ") + field + "[P=" +
                                     std::to_string(it->first) + "].median must be positive");
  return it->second.median;
}

}  // namespace

const char* variant_name(Variant v) { return v == Variant::Paper ? "paper" : "refined"; }

Variant parse_variant(std::string_view name) {
  if (name == "paper") return Variant::Paper;
  if (name == "refined") return Variant::Refined;
  throw std::invalid_argument("unknown model variant '" + std::string(name) +
                              "' (valid: paper, refined)");
}

DeviceFigures device_figures_from(const credit::Calibration& cal) {
  DeviceFigures d;
  d.sm_count = cal.device.sm_count;
  require(d.sm_count > 0, "calibration device.sm_count must be positive");
  d.smem_max = cal.device.smem_per_block_optin;
  require(d.smem_max > 0, "calibration device.smem_per_block_optin must be positive");
  d.f_hz = cal.sm_clock_hz;
  require(d.f_hz > 0, "calibration sm_clock_hz must be positive");
  d.b_smem_read = median_at_p2(cal.local_read, "local_read");
  d.b_smem_write = median_at_p2(cal.local_store, "local_store");
  require(!cal.remote_store.empty(), "calibration lacks remote_store");
  for (const auto& [p, st] : cal.remote_store) {
    require(st.median > 0, "calibration remote_store[P=" + std::to_string(p) +
                               "].median must be positive");
    d.b_dsm_write[p] = st.median;
  }
  d.max_active_clusters = cal.max_active_clusters;
  return d;
}

long long cluster_smem_bytes(const StaticFigures& f, long long n, int p) {
  return ceil_div(n, p) * f.b_keep + f.s_scratch;
}

bool cluster_legal(const StaticFigures& f, long long n, int p, long smem_max) {
  return cluster_smem_bytes(f, n, p) <= smem_max;
}

const char* baseline_name(Baseline b) {
  return b == Baseline::Staged ? "staged" : "global_reread";
}

Baseline baseline_path(const StaticFigures& f, long long n, long smem_max) {
  return cluster_legal(f, n, 1, smem_max) ? Baseline::Staged : Baseline::GlobalReread;
}

int reread_bytes(const StaticFigures& f, Baseline b) {
  return b == Baseline::Staged ? 0 : f.b_reread;
}

Traffic traffic(const StaticFigures& f, long long n, Baseline b) {
  Traffic t;
  t.d_cluster = f.d_fixed(double(n));
  t.d_base = t.d_cluster + double(n) * reread_bytes(f, b);
  t.ceiling = t.d_base / t.d_cluster;
  t.b_b = t.d_base / double(n);
  return t;
}

double dsm_write_bytes(const StaticFigures& f, int p) {
  return double(p) * (p - 1) * f.Q * f.s;
}

long long waves(Variant v, const DeviceFigures& d, long long m, int p) {
  require(m > 0 && p > 0, "waves: M and P must be positive");
  if (v == Variant::Refined) {
    // Not every SM can host a cluster (GPC layout): the measured figure says how many fit.
    const auto it = d.max_active_clusters.find(p);
    if (it != d.max_active_clusters.end() && it->second > 0) return ceil_div(m, it->second);
  }
  const long long concurrent = d.sm_count / p;  // one CTA per SM while staging
  require(concurrent > 0, "waves: P = " + std::to_string(p) + " exceeds the " +
                              std::to_string(d.sm_count) + " SMs");
  return ceil_div(m, concurrent);
}

double input_bytes_per_elem(const StaticFigures& f) { return f.b_keep; }

Terms evaluate(const StaticFigures& f, Variant v, const DeviceFigures& d, long long m,
               long long n, int p, double t_b_ms, double t_ctrl_ms, double copy_gbps,
               double t_copy_ms) {
  require(n > 0, "evaluate: N must be positive");
  require(t_b_ms > 0, "evaluate: T_B must be positive");
  require(d.f_hz > 0 && d.b_smem_read > 0 && d.b_smem_write > 0,
          "evaluate: f, B_SMEM^r and B_SMEM^w must be positive");
  const auto dsm = d.b_dsm_write.find(p);
  require(dsm != d.b_dsm_write.end() && dsm->second > 0,
          "evaluate: no remote-store rate B_DSM^w for P = " + std::to_string(p));

  const Baseline base = baseline_path(f, n, d.smem_max);
  const Traffic tr = traffic(f, n, base);
  Terms t;
  t.waves = waves(v, d, m, p);
  const double w = double(t.waves);
  const double slice_bytes = double(ceil_div(n, p)) * f.b_keep;  // one CTA's retained slice
  // Eq. 7: the reread bytes valued at the rate the baseline achieved at this shape.
  t.t_save = t_b_ms * reread_bytes(f, base) / tr.b_b;
  if (v == Variant::Refined && base == Baseline::Staged && (t_copy_ms > 0 || copy_gbps > 0)) {
    // A staged baseline saves no traffic to clustering; its loss is occupancy and latency,
    // bounded by the time it spends above the copy floor (GB/s * 1e6 = bytes/ms).
    const double floor_ms = t_copy_ms > 0 ? t_copy_ms : double(m) * tr.d_cluster / (copy_gbps * 1e6);
    t.t_save = std::max(0.0, t_b_ms - floor_ms);
  }
  t.t_ctrl = t_ctrl_ms;
  // Eq. 8: per-CTA issue times per wave; the P CTAs of a cluster work concurrently.
  t.t_replay = w * slice_bytes / (d.b_smem_read * d.f_hz) * kMsPerS;
  t.t_dsm = w * (p - 1) * f.Q * f.s / (dsm->second * d.f_hz) * kMsPerS;
  t.t_smem_w = w * slice_bytes / (d.b_smem_write * d.f_hz) * kMsPerS;
  t.t_input = t_b_ms * double(n) * input_bytes_per_elem(f) / tr.d_base;
  t.t_deposit = std::max(0.0, t.t_smem_w - t.t_input);
  // Eq. 9.
  t.dt = t.t_save - t.t_ctrl - t.t_replay - t.t_dsm - t.t_deposit;
  return t;
}

std::optional<std::string> structural_rejection(const StaticFigures& f) {
  switch (f.structure) {
    case Structure::Elementwise:
      return "elementwise: no statistic is reused (there is no row statistic; each element is read once "
             "and written once, b_reread = 0), so a cluster has no re-read to remove";
    case Structure::OnePassReduction:
      return "one-pass reduction: no statistic is reused (the row is read once and its statistics are the "
             "output, b_reread = 0), so a cluster has no re-read to remove";
    case Structure::Scan:
      return "scan: the output depends on order (element i needs every element before it), so the CTAs "
             "of a row wait on each other in rank order: synchronisation grows with P, not one exchange "
             "of compact statistics";
    case Structure::Selection:
      return "selection: the output depends on order (a position in the row, not a function of reused "
             "statistics), and the state a CTA must share grows with what it selects, not with sum q_l";
    case Structure::ReductionReuse:
      break;
  }
  if (f.b_reread <= 0) return "b_reread = 0: the baseline re-reads nothing, nothing to amortise";
  return std::nullopt;
}

credit::Prediction predict(const StaticFigures& f, std::string workload, Variant v,
                           const DeviceFigures& d, long long m, long long n,
                           const ShapeTimings& t, const std::vector<int>& ps) {
  require(m > 0 && n > 0, "predict: M and N must be positive");
  credit::Prediction pred;
  pred.workload = std::move(workload);
  pred.model = variant_name(v);
  pred.m = m;
  pred.n = n;
  pred.baseline = baseline_name(baseline_path(f, n, d.smem_max));
  pred.t_b_ms = t.t_b_ms;
  const auto rejected = structural_rejection(f);

  for (int p : ps) {
    require(p > 0, "predict: P must be positive");
    PredictionRow row;
    row.p = p;
    const long long need = cluster_smem_bytes(f, n, p);
    row.legal = need <= d.smem_max;
    std::string why;
    if (!row.legal) {
      why = "ceil(N/P)*b_keep + S_scratch = " + std::to_string(need) + " B > S_max = " +
            std::to_string(d.smem_max) + " B";
    } else if (p > d.sm_count) {
      row.legal = false;
      why = "P = " + std::to_string(p) + " exceeds the " + std::to_string(d.sm_count) + " SMs";
    } else if (!t.t_ctrl_ms.count(p)) {
      why = "no T_ctrl timing for P = " + std::to_string(p) + ": not evaluated";
    } else if (!d.b_dsm_write.count(p)) {
      why = "no remote-store rate B_DSM^w for P = " + std::to_string(p) + ": not evaluated";
    } else {
      const Terms e = evaluate(f, v, d, m, n, p, t.t_b_ms, t.t_ctrl_ms.at(p), t.copy_gbps, t.t_copy_ms);
      row.waves = double(e.waves);
      row.t_save_ms = e.t_save;
      row.t_ctrl_ms = e.t_ctrl;
      row.t_replay_ms = e.t_replay;
      row.t_dsm_ms = e.t_dsm;
      row.t_deposit_ms = e.t_deposit;
      row.dt_ms = e.dt;
      row.profitable = e.dt > 0 && !rejected;
    }
    if (rejected) {
      row.profitable = false;
      why = why.empty() ? *rejected : *rejected + "; " + why;
    }
    row.reason = why;
    pred.rows.push_back(row);
  }
  pred.best_p = best_profitable_p(pred.rows);
  return pred;
}

std::optional<int> best_profitable_p(const std::vector<PredictionRow>& rows) {
  // First (smallest listed) P wins a tie.
  const PredictionRow* best = nullptr;
  for (const auto& row : rows)
    if (row.profitable && (!best || row.dt_ms > best->dt_ms)) best = &row;
  return best ? std::optional<int>(best->p) : std::nullopt;
}

std::optional<long long> n_star(const std::vector<credit::Prediction>& preds_sorted_by_n) {
  std::optional<long long> best;
  for (const auto& p : preds_sorted_by_n)
    if (p.best_p && (!best || p.n < *best)) best = p.n;
  return best;
}

}  // namespace credit::model
