#include "reference/reference64.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "support/parallel.hpp"

namespace {

constexpr double kEps = 1e-5;

using Vec = std::vector<double>;

// Collects the outputs by name and returns them in the declaration's order.
struct Outputs {
  const HostProblem& p;
  std::map<std::string, Vec> elem, row;
  Outputs(const HostProblem& prob) : p(prob) {
    for (const auto& o : p.w->outputs) elem[o.name].assign(size_t(p.m) * p.n, 0.0);
    for (const auto& name : p.w->row_outputs) row[name].assign(size_t(p.m), 0.0);
  }
  Reference64 take() {
    Reference64 r;
    for (const auto& o : p.w->outputs) r.out.push_back(std::move(elem.at(o.name)));
    for (const auto& name : p.w->row_outputs) r.row_out.push_back(std::move(row.at(name)));
    return r;
  }
};

// One row of input `name` as doubles.
Vec row_of(const HostProblem& p, const char* name, long long r) {
  const float* x = p.input(name).data() + r * p.n;
  return Vec(x, x + p.n);
}

double sum(const Vec& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

void layernorm(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_y = o.elem.at("y");
  const auto& gamma = p.col_param("gamma");
  const auto& beta = p.col_param("beta");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    const double mu = sum(x) / p.n;
    double var = 0;
    for (double v : x) var += (v - mu) * (v - mu);
    var /= p.n;
    const double rstd = 1.0 / std::sqrt(var + kEps);
    for (int i = 0; i < p.n; ++i)
      out_y[r * p.n + i] = (x[i] - mu) * rstd * gamma[i] + beta[i];
  }
}

void rmsnorm(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_y = o.elem.at("y");
  const auto& gamma = p.col_param("gamma");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    double ss = 0;
    for (double v : x) ss += v * v;
    const double inv = 1.0 / std::sqrt(ss / p.n + kEps);
    for (int i = 0; i < p.n; ++i) out_y[r * p.n + i] = x[i] * inv * gamma[i];
  }
}

void add_rmsnorm(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_h = o.elem.at("h");
  Vec& out_y = o.elem.at("y");
  const auto& gamma = p.col_param("gamma");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r), res = row_of(p, "r", r);
    Vec h(p.n);
    double ss = 0;
    for (int i = 0; i < p.n; ++i) {
      h[i] = x[i] + res[i];
      ss += h[i] * h[i];
    }
    const double inv = 1.0 / std::sqrt(ss / p.n + kEps);
    for (int i = 0; i < p.n; ++i) {
      out_h[r * p.n + i] = h[i];
      out_y[r * p.n + i] = h[i] * inv * gamma[i];
    }
  }
}

void wvar_bwd(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_dx = o.elem.at("dx");
  Vec& out_dw = o.elem.at("dw");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r), w = row_of(p, "w", r);
    const double gv = p.row_param("gv")[r];
    double S = 0, Swx = 0;
    for (int i = 0; i < p.n; ++i) S += w[i], Swx += w[i] * x[i];
    const double mean = Swx / S;
    double v = 0;
    for (int i = 0; i < p.n; ++i) v += w[i] * (x[i] - mean) * (x[i] - mean);
    v /= S;
    for (int i = 0; i < p.n; ++i) {
      const double d = x[i] - mean;
      out_dx[r * p.n + i] = gv * 2.0 * w[i] * d / S;
      out_dw[r * p.n + i] = gv * (d * d - v) / S;
    }
  }
}

void pearson_bwd(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_dx = o.elem.at("dx");
  Vec& out_dy = o.elem.at("dy");
  for (long long r = r0; r < r1; ++r) {
    Vec a = row_of(p, "x", r), b = row_of(p, "y", r);
    const double gr = p.row_param("gr")[r];
    const double mx = sum(a) / p.n, my = sum(b) / p.n;
    double Saa = 0, Sbb = 0, Sab = 0;
    for (int i = 0; i < p.n; ++i) {
      a[i] -= mx, b[i] -= my;
      Saa += a[i] * a[i], Sbb += b[i] * b[i], Sab += a[i] * b[i];
    }
    // A constant row has no correlation: its gradient terms are 0 (DESIGN.md's convention).
    const double inv_d = Saa * Sbb == 0 ? 0.0 : 1.0 / std::sqrt(Saa * Sbb);
    const double rho = Sab * inv_d;
    for (int i = 0; i < p.n; ++i) {
      const double ta = Saa == 0 ? 0.0 : rho * a[i] / Saa;
      const double tb = Sbb == 0 ? 0.0 : rho * b[i] / Sbb;
      out_dx[r * p.n + i] = gr * (b[i] * inv_d - ta);
      out_dy[r * p.n + i] = gr * (a[i] * inv_d - tb);
    }
  }
}

void softmax_bwd(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_dx = o.elem.at("dx");
  for (long long r = r0; r < r1; ++r) {
    const Vec z = row_of(p, "z", r), dy = row_of(p, "dy", r);
    const double zmax = *std::max_element(z.begin(), z.end());
    Vec e(p.n);
    for (int i = 0; i < p.n; ++i) e[i] = std::exp(z[i] - zmax);
    const double Z = sum(e);
    double dot = 0;
    for (int i = 0; i < p.n; ++i) dot += e[i] / Z * dy[i];
    for (int i = 0; i < p.n; ++i) out_dx[r * p.n + i] = e[i] / Z * (dy[i] - dot);
  }
}

void softmax_dropout_bwd(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_dz = o.elem.at("dz");
  for (long long r = r0; r < r1; ++r) {
    const Vec z = row_of(p, "z", r), dy = row_of(p, "dy", r), k = row_of(p, "k", r);
    const double zmax = *std::max_element(z.begin(), z.end());
    Vec e(p.n);
    for (int i = 0; i < p.n; ++i) e[i] = std::exp(z[i] - zmax);
    const double Z = sum(e);
    double dot = 0;  // sum p dy k: the mask scales the upstream gradient before the softmax's
    for (int i = 0; i < p.n; ++i) dot += e[i] / Z * dy[i] * k[i];
    for (int i = 0; i < p.n; ++i) out_dz[r * p.n + i] = e[i] / Z * (dy[i] * k[i] - dot);
  }
}

// Layer norm's input gradient from the gradient g at the normalised output (no affine parameters):
// dx = d/dx of sum_i g_i xhat_i, written out as the textbook expression.
void layernorm_bwd(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_dx = o.elem.at("dx");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r), g = row_of(p, "g", r);
    const double mu = sum(x) / p.n;
    double var = 0;
    for (double v : x) var += (v - mu) * (v - mu);
    var /= p.n;
    const double rstd = 1.0 / std::sqrt(var + kEps);
    Vec xhat(p.n);
    double mean_g = 0, mean_gx = 0;
    for (int i = 0; i < p.n; ++i) {
      xhat[i] = (x[i] - mu) * rstd;
      mean_g += g[i];
      mean_gx += g[i] * xhat[i];
    }
    mean_g /= p.n;
    mean_gx /= p.n;
    for (int i = 0; i < p.n; ++i) out_dx[r * p.n + i] = rstd * (g[i] - mean_g - xhat[i] * mean_gx);
  }
}

void lars(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_m_new = o.elem.at("m_new");
  Vec& out_w_new = o.elem.at("w_new");
  const double lr = 0.1, mom = 0.9, wd = 1e-4, eta = 1e-3;
  for (long long r = r0; r < r1; ++r) {
    const Vec w = row_of(p, "w", r), g = row_of(p, "g", r), m = row_of(p, "m", r);
    double ww = 0, gg = 0;
    for (int i = 0; i < p.n; ++i) ww += w[i] * w[i], gg += g[i] * g[i];
    const double wn = std::sqrt(ww), gn = std::sqrt(gg);
    const double trust = (wn > 0 && gn > 0) ? eta * wn / (gn + wd * wn) : 1.0;
    for (int i = 0; i < p.n; ++i) {
      const double m_new = mom * m[i] + lr * trust * (g[i] + wd * w[i]);
      out_m_new[r * p.n + i] = m_new;
      out_w_new[r * p.n + i] = w[i] - m_new;
    }
  }
}

void quant_int8(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_q = o.elem.at("q");
  Vec& row_out_scale = o.row.at("scale");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    double amax = 0;
    for (double v : x) amax = std::max(amax, std::fabs(v));
    const double scale = amax == 0 ? 1.0 : amax / 127.0;
    for (int i = 0; i < p.n; ++i)
      out_q[r * p.n + i] = std::clamp(std::rint(x[i] / scale), -127.0, 127.0);
    row_out_scale[r] = scale;
  }
}

void rms_softmax(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_y = o.elem.at("y");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    double ss = 0;
    for (double v : x) ss += v * v;
    const double s = 1.0 / std::sqrt(ss / p.n + kEps);
    const double xmax = *std::max_element(x.begin(), x.end());
    Vec e(p.n);
    for (int i = 0; i < p.n; ++i) e[i] = std::exp((x[i] - xmax) * s);
    const double Z = sum(e);
    for (int i = 0; i < p.n; ++i) out_y[r * p.n + i] = e[i] / Z;
  }
}

// The negative controls (docs/design.md section 1, "negative controls").

void scaled_bias_add(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_y = o.elem.at("y");
  const auto& b = p.col_param("b");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    for (int i = 0; i < p.n; ++i) out_y[r * p.n + i] = 0.5 * x[i] + b[i];
  }
}

void row_sum(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& row_out_s = o.row.at("s");
  for (long long r = r0; r < r1; ++r) row_out_s[r] = sum(row_of(p, "x", r));
}

void row_cumsum(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& out_y = o.elem.at("y");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    std::vector<long double> prefix(x.size());
    std::partial_sum(x.begin(), x.end(), prefix.begin(), std::plus<long double>());
    for (int i = 0; i < p.n; ++i) out_y[r * p.n + i] = double(prefix[i]);
  }
}

void row_argmax(const HostProblem& p, Outputs& o, long long r0, long long r1) {
  Vec& row_out_i = o.row.at("i");
  for (long long r = r0; r < r1; ++r) {
    const Vec x = row_of(p, "x", r);
    row_out_i[r] = double(std::max_element(x.begin(), x.end()) - x.begin());  // the first of equal maxima
  }
}

}  // namespace

Reference64 reference64(const HostProblem& p) {
  using RowsFn = void (*)(const HostProblem&, Outputs&, long long, long long);
  static const std::map<std::string, RowsFn> table = {
      {"layernorm", layernorm},     {"wvar_bwd", wvar_bwd}, {"pearson_bwd", pearson_bwd},
      {"softmax_bwd", softmax_bwd}, {"lars", lars},         {"quant_int8", quant_int8},
      {"rms_softmax", rms_softmax}, {"rmsnorm", rmsnorm},         {"add_rmsnorm", add_rmsnorm},
      {"softmax_dropout_bwd", softmax_dropout_bwd}, {"layernorm_bwd", layernorm_bwd},
      {"scaled_bias_add", scaled_bias_add}, {"row_sum", row_sum}, {"row_cumsum", row_cumsum},
      {"row_argmax", row_argmax},
  };
  const auto it = table.find(p.w->name);
  if (it == table.end())
    throw std::invalid_argument("reference64: no reference for workload '" + p.w->name + "'");
  Outputs o(p);
  // Rows are independent and write disjoint ranges: the wide-row tests' oracles (up to 2^28
  // elements) run on every core, in groups of rows of about 2^20 elements or more.
  const long long per_group = std::max(1LL, (1LL << 20) / std::max(1LL, (long long)p.n));
  test::for_ranges(std::size_t((p.m + per_group - 1) / per_group), [&](std::size_t first, std::size_t last) {
    it->second(p, o, (long long)first * per_group, std::min(p.m, (long long)last * per_group));
  });
  return o.take();
}

std::vector<int8_t> quant_int8_float32(const HostProblem& p, std::vector<float>* scale) {
  const std::vector<float>& x = p.input("x");
  std::vector<int8_t> q(x.size());
  if (scale) scale->assign(size_t(p.m), 0.0f);
  for (long long r = 0; r < p.m; ++r) {
    float amax = 0.0f;
    for (int i = 0; i < p.n; ++i) amax = std::max(amax, std::fabs(x[r * p.n + i]));
    const float s = amax == 0.0f ? 1.0f : amax / 127.0f;
    for (int i = 0; i < p.n; ++i) {
      const float v = std::rint(x[r * p.n + i] / s);
      q[r * p.n + i] = int8_t(std::clamp(v, -127.0f, 127.0f));
    }
    if (scale) (*scale)[r] = s;
  }
  return q;
}

double rel_l2(const float* got, const std::vector<double>& ref) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    err += (got[i] - ref[i]) * (got[i] - ref[i]);
    norm += ref[i] * ref[i];
  }
  return norm == 0 ? std::sqrt(err) : std::sqrt(err / norm);
}
