#pragma once
// Ordinary least squares of y on x: the copy line of the time model (bandwidth and launch time)
// and the calibration's per-element probe (a time slope over widths) both fit one. Pure host code.
#include <cstddef>
#include <vector>

namespace credit {

struct Line {
  double slope = 0;
  double intercept = 0;
};

// Needs at least two points with distinct x (the caller checks the count).
inline Line least_squares(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double k = double(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  Line l;
  l.slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  l.intercept = (sy - l.slope * sx) / k;
  return l;
}

}  // namespace credit
