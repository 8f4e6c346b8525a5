#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace credit::report::svg {

namespace {

// Okabe-Ito: distinguishable with the common colour-vision deficiencies, and in grey print.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr int kMarkers = 5;
constexpr double kFont = 12, kCharWidth = 6.6;  // sans-serif at 12px: a conservative average width
constexpr double kLeft = 60, kRight = 18, kTop = 34, kAxisBelow = 46;

const char* colour(int style) { return kColours[style % std::size(kColours)]; }

std::string num(double v) { return fmt::format("{:.1f}", v); }

// Short decimal for ticks and tooltips: no trailing zeros, at most 4 significant digits.
std::string short_number(double v) {
  std::string s = fmt::format("{:.4g}", v);
  return s == "-0" ? "0" : s;
}

std::string text(double x, double y, const std::string& s, const char* anchor = "middle", const char* extra = "") {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}>{}</text>\n", num(x), num(y), anchor, extra,
                     escape(s));
}

// A marker of the series' shape centred at (x, y), with its exact value as a tooltip.
std::string marker(int style, double x, double y, const std::string& tip) {
  const std::string tail = fmt::format(" fill=\"{}\" stroke=\"white\" stroke-width=\"0.8\"><title>{}</title>",
                                       colour(style), escape(tip));
  std::string d;  // the path of the shapes that are not a circle or a square
  switch (style % kMarkers) {
    case 0: return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.6\"{}</circle>\n", num(x), num(y), tail);
    case 1:
      return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"7\" height=\"7\"{}</rect>\n", num(x - 3.5), num(y - 3.5),
                         tail);
    case 2:  // triangle up
      d = fmt::format("M{} {}L{} {}L{} {}Z", num(x), num(y - 4.5), num(x + 4.5), num(y + 3.5), num(x - 4.5),
                      num(y + 3.5));
      break;
    case 3:  // diamond
      d = fmt::format("M{} {}L{} {}L{} {}L{} {}Z", num(x), num(y - 5), num(x + 5), num(y), num(x), num(y + 5),
                      num(x - 5), num(y));
      break;
    default:  // triangle down
      d = fmt::format("M{} {}L{} {}L{} {}Z", num(x), num(y + 4.5), num(x + 4.5), num(y - 3.5), num(x - 4.5),
                      num(y - 3.5));
  }
  return fmt::format("<path d=\"{}\"{}</path>\n", d, tail);
}

struct Scale {
  double lo = 0, hi = 1, px0 = 0, px1 = 1;
  bool log2 = false;
  double operator()(double v) const {
    const double a = log2 ? std::log2(lo) : lo, b = log2 ? std::log2(hi) : hi, t = log2 ? std::log2(v) : v;
    return b == a ? (px0 + px1) / 2 : px0 + (t - a) / (b - a) * (px1 - px0);
  }
};

// Ticks about `want` apart in count, at 1, 2, 2.5 or 5 times a power of ten; widens [lo, hi]
// to whole ticks.
std::vector<double> linear_ticks(double& lo, double& hi, int want = 5) {
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / want, mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double f : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (f * mag >= raw) {
      step = f * mag;
      break;
    }
  lo = std::floor(lo / step + 1e-9) * step;
  hi = std::ceil(hi / step - 1e-9) * step;
  std::vector<double> t;
  for (double v = lo; v <= hi + step * 1e-6; v += step) t.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
  return t;
}

// Powers of two covering [lo, hi]; every other one when there would be more than 9.
std::vector<double> log2_ticks(double& lo, double& hi) {
  const int a = int(std::floor(std::log2(lo) + 1e-9)), b = int(std::ceil(std::log2(hi) - 1e-9));
  lo = std::exp2(a);
  hi = std::exp2(std::max(b, a + 1));
  const int stride = (b - a) > 9 ? 2 : 1;
  std::vector<double> t;
  for (int e = a; e <= std::max(b, a + 1); e += stride) t.push_back(std::exp2(e));
  return t;
}

void data_range(const Axis& ax, double dmin, double dmax, double& lo, double& hi) {
  lo = ax.min.value_or(dmin);
  hi = ax.max.value_or(dmax);
  if (!std::isfinite(lo) || !std::isfinite(hi)) {  // no data: an empty but valid axis
    lo = ax.log2 ? 1 : 0;
    hi = ax.log2 ? 2 : 1;
  }
}

struct LegendItem {
  std::string name;
  int style;
  bool dashed, bar;
};

// Legend rows below the plot, wrapped to the chart's width. Returns the SVG and its height.
std::pair<std::string, double> legend(const std::vector<LegendItem>& items, double width, double y0) {
  std::string out;
  double x = kLeft, y = y0 + 14;
  for (const auto& it : items) {
    const double w = 30 + kCharWidth * double(it.name.size()) + 14;
    if (x + w > width - kRight && x > kLeft) {
      x = kLeft;
      y += 18;
    }
    if (it.bar)
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" fill=\"{}\"/>\n", num(x + 6), num(y - 9),
                         colour(it.style));
    else {
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>\n",
                         num(x), num(y - 4), num(x + 24), num(y - 4), colour(it.style),
                         it.dashed ? " stroke-dasharray=\"5 3\"" : "");
      out += marker(it.style, x + 12, y - 4, it.name);
    }
    out += text(x + 30, y, it.name, "start");
    x += w;
  }
  return {out, items.empty() ? 0.0 : y - y0 + 8};
}

// Label rows below the x axis label, starting at y0: each row's name left of the plot, its texts
// at their x, a text that would overlap its left neighbour on a further line. Returns the SVG
// and its height.
std::pair<std::string, double> label_rows(const std::vector<LabelRow>& rows, const Scale& sx, double y0) {
  constexpr double kLine = 13, kSmallChar = 5.6;  // 10px text
  std::string out;
  double y = y0 + 4;
  for (const auto& row : rows) {
    std::vector<double> right;  // per line: where its last text ends
    std::string texts;
    for (const auto& l : row.labels) {
      const double w = kSmallChar * double(l.text.size()), x = sx(l.x);
      std::size_t line = 0;
      while (line < right.size() && right[line] + 3 > x - w / 2) ++line;
      if (line == right.size()) right.push_back(0);
      right[line] = x + w / 2;
      const char* style = l.tone == Label::alert   ? " fill=\"#D55E00\" font-weight=\"bold\""
                          : l.tone == Label::muted ? " fill=\"#8a8a8a\""
                                                   : "";
      texts += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\"{}><title>{}</title>{}</text>\n", num(x),
          num(y + kLine * (double(line) + 1) - 3), style, escape(l.tip), escape(l.text));
    }
    out += text(sx.px0 - 6, y + kLine - 3, row.name, "end", " font-size=\"10\" fill=\"#444\"") + texts;
    y += kLine * double(std::max<std::size_t>(right.size(), 1));
  }
  return {out, rows.empty() ? 0.0 : y - y0 + 2};
}

std::string open_svg(double w, double h, const std::string& title) {
  return fmt::format(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
             "font-family=\"sans-serif\" font-size=\"{2}\" role=\"img\">\n<title>{3}</title>\n"
             "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
             num(w), num(h), kFont, escape(title)) +
         text(w / 2, 20, title, "middle", " font-weight=\"bold\" font-size=\"13\"");
}

// Grid lines, tick labels and axis labels of a plot area [x0, x1] x [y1, y0] (y grows down).
std::string axes(const Scale& sx, const std::vector<double>* xt, const Scale& sy, const std::vector<double>& yt,
                 const std::string& xlabel, const std::string& ylabel) {
  std::string out;
  for (double v : yt) {
    const double y = sy(v);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e3e3e3\"/>\n", num(sx.px0), num(y),
                       num(sx.px1), num(y));
    out += text(sx.px0 - 6, y + 4, short_number(v), "end");
  }
  if (xt)
    for (double v : *xt) {
      const double x = sx(v);
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#eeeeee\"/>\n", num(x), num(sy.px0),
                         num(x), num(sy.px1));
      out += text(x, sy.px0 + 16, sx.log2 ? width_label(v) : short_number(v));
    }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#777\"/>\n",
                     num(sx.px0), num(sy.px1), num(sx.px1 - sx.px0), num(sy.px0 - sy.px1));
  out += text((sx.px0 + sx.px1) / 2, sy.px0 + 36, xlabel);
  const double cy = (sy.px0 + sy.px1) / 2;
  out += fmt::format("<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0})\">{1}</text>\n",
                     num(cy), escape(ylabel));
  return out;
}

}  // namespace

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  return out;
}

std::string width_label(double n) {
  const auto v = static_cast<long long>(std::llround(n));
  if (v >= 1 << 20 && v % (1 << 20) == 0) return fmt::format("{}M", v >> 20);
  if (v >= 1024 && v % 1024 == 0) return fmt::format("{}K", v >> 10);
  return std::to_string(v);
}

std::pair<double, double> y_range(const LineChart& c) {
  double ymin = std::numeric_limits<double>::infinity(), ymax = -ymin;
  for (const auto& s : c.series)
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y)) {
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
      }
  if (c.reference_y) {
    ymin = std::min(ymin, *c.reference_y);
    ymax = std::max(ymax, *c.reference_y);
  }
  double lo, hi;
  data_range(c.y, ymin, ymax, lo, hi);
  if (!c.y.min && !c.y.max) {  // a little air around the data
    const double pad = (hi - lo) * 0.06;
    lo -= pad;
    hi += pad;
  }
  return {lo, hi};
}

double y_max(const BarChart& c) {
  double top = 0;
  for (const auto& [label, vs] : c.groups)
    for (const auto& v : vs)
      if (v && std::isfinite(*v)) top = std::max(top, *v);
  return c.y_max.value_or(top > 0 ? top * 1.05 : 1);
}

void share_y_range(std::vector<LineChart>& panels) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& c : panels) {
    const bool has_data = std::any_of(c.series.begin(), c.series.end(), [](const Series& s) {
      return std::any_of(s.points.begin(), s.points.end(),
                         [](const auto& p) { return std::isfinite(p.first) && std::isfinite(p.second); });
    });
    if (!has_data) continue;  // an empty panel's default range would stretch the others
    const auto [a, b] = y_range(c);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  }
  if (!(lo <= hi)) return;
  for (auto& c : panels) {
    c.y.min = lo;
    c.y.max = hi;
  }
}

void share_y_range(std::vector<BarChart>& panels) {
  double top = 0;
  for (const auto& c : panels) top = std::max(top, y_max(c));
  for (auto& c : panels) c.y_max = top;
}

std::string line_chart(const LineChart& c) {
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  for (const auto& s : c.series)
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y)) {
        xmin = std::min(xmin, x);
        xmax = std::max(xmax, x);
      }
  double xlo, xhi;
  data_range(c.x, xmin, xmax, xlo, xhi);
  auto [ylo, yhi] = y_range(c);
  const std::vector<double> xt = c.x.log2 ? log2_ticks(xlo, xhi) : linear_ticks(xlo, xhi);
  const std::vector<double> yt = linear_ticks(ylo, yhi);

  std::vector<LegendItem> items;
  for (const auto& s : c.series) items.push_back({s.name, s.style, s.dashed, false});
  const double plot_bottom = c.height - kAxisBelow;
  const Scale sx{xlo, xhi, kLeft, c.width - kRight, c.x.log2};
  const Scale sy{ylo, yhi, plot_bottom, kTop, false};
  auto [rows, rows_h] = label_rows(c.label_rows, sx, c.height - 4);
  auto [leg, leg_h] = legend(items, c.width, c.height - 4 + rows_h);

  std::string out = open_svg(c.width, c.height + rows_h + leg_h, c.title);
  out += axes(sx, &xt, sy, yt, c.x.label, c.y.label);
  out += rows;
  if (c.reference_y) {
    const double y = sy(*c.reference_y);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#444\" stroke-dasharray=\"2 3\"/>\n",
                       num(sx.px0), num(y), num(sx.px1), num(y));
    if (!c.reference_label.empty())
      out += text(sx.px1 - 4, y - 4, c.reference_label, "end", " fill=\"#444\" font-size=\"11\"");
  }
  for (const auto& s : c.series) {
    std::string d;
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      d += fmt::format("{}{} {}", d.empty() ? "M" : "L", num(sx(x)), num(sy(y)));
    }
    if (d.empty()) continue;
    out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\"{}/>\n", d, colour(s.style),
                       s.dashed ? " stroke-dasharray=\"5 3\"" : "");
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y))
        out += marker(s.style, sx(x), sy(y),
                      fmt::format("{}: {} at {}", s.name, short_number(y), c.x.log2 ? std::to_string(std::llround(x))
                                                                                    : short_number(x)));
  }
  return out + leg + "</svg>\n";
}

std::string bar_chart(const BarChart& c) {
  double ylo = 0, yhi = y_max(c);
  const std::vector<double> yt = linear_ticks(ylo, yhi);

  std::vector<LegendItem> items;
  for (std::size_t i = 0; i < c.series.size(); ++i) items.push_back({c.series[i], int(i), false, true});
  auto [leg, leg_h] = legend(items, c.width, c.height - 4);
  const double plot_bottom = c.height - kAxisBelow;
  const Scale sy{ylo, yhi, plot_bottom, kTop, false};
  const Scale sx{0, 1, kLeft, c.width - kRight, false};

  std::string out = open_svg(c.width, c.height + leg_h, c.title);
  out += axes(sx, nullptr, sy, yt, c.x_label, c.y_label);
  const double group_w = (sx.px1 - sx.px0) / double(std::max<std::size_t>(c.groups.size(), 1));
  const double bar_w = group_w * 0.8 / double(std::max<std::size_t>(c.series.size(), 1));
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const double gx = sx.px0 + group_w * double(g);
    out += text(gx + group_w / 2, plot_bottom + 16, c.groups[g].first);
    for (std::size_t i = 0; i < c.groups[g].second.size() && i < c.series.size(); ++i) {
      const auto& v = c.groups[g].second[i];
      if (!v || !std::isfinite(*v)) continue;
      const double x = gx + group_w * 0.1 + bar_w * double(i), y = sy(*v);
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
                         num(x), num(y), num(std::max(bar_w - 1, 1.0)), num(plot_bottom - y), colour(int(i)),
                         escape(fmt::format("{}, {}: {}", c.series[i], c.groups[g].first, short_number(*v))));
    }
  }
  return out + leg + "</svg>\n";
}

std::string dot_plot(const DotPlot& c) {
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  for (const auto& [label, xs] : c.rows)
    for (const auto& x : xs)
      if (x) {
        xmin = std::min(xmin, *x);
        xmax = std::max(xmax, *x);
      }
  double xlo, xhi;
  data_range(c.x, xmin, xmax, xlo, xhi);
  const std::vector<double> xt = c.x.log2 ? log2_ticks(xlo, xhi) : linear_ticks(xlo, xhi);

  std::size_t label_chars = 0;
  for (const auto& [label, xs] : c.rows) label_chars = std::max(label_chars, label.size());
  const double left = std::max(kLeft, 12 + kCharWidth * double(label_chars)), none_w = 64, row_h = 24;
  const double plot_top = kTop, plot_bottom = plot_top + row_h * double(std::max<std::size_t>(c.rows.size(), 1));
  const double height = plot_bottom + kAxisBelow;
  std::vector<LegendItem> items;
  for (std::size_t i = 0; i < c.series.size(); ++i) items.push_back({c.series[i], int(i), false, false});
  auto [leg, leg_h] = legend(items, c.width, height - 4);
  // The "none" band sits right of the axis, a gap away so its label clears the last tick's.
  const double gap = 22;
  const Scale sx{xlo, xhi, left, c.width - kRight - none_w - gap, c.x.log2};

  std::string out = open_svg(c.width, height + leg_h, c.title);
  for (double v : xt) {
    const double x = sx(v);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e3e3e3\"/>\n", num(x), num(plot_top),
                       num(x), num(plot_bottom));
    out += text(x, plot_bottom + 16, c.x.log2 ? width_label(v) : short_number(v));
  }
  const double none_x = c.width - kRight - none_w / 2;
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" stroke=\"#777\"/>\n",
                     num(c.width - kRight - none_w), num(plot_top), num(none_w), num(plot_bottom - plot_top));
  out += text(none_x, plot_bottom + 16, c.none_label);
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#777\"/>\n", num(left),
                     num(plot_top), num(sx.px1 - left), num(plot_bottom - plot_top));
  out += text((left + sx.px1) / 2, plot_bottom + 36, c.x.label);
  const double n_series = double(std::max<std::size_t>(c.series.size(), 1));
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    const double y = plot_top + row_h * (double(r) + 0.5);
    out += text(left - 6, y + 4, c.rows[r].first, "end");
    for (std::size_t i = 0; i < c.rows[r].second.size() && i < c.series.size(); ++i) {
      // Series sit slightly apart vertically so equal values stay visible.
      const double dy = (double(i) - (n_series - 1) / 2) * 5;
      const auto& x = c.rows[r].second[i];
      out += marker(int(i), x ? sx(*x) : none_x + (double(i) - (n_series - 1) / 2) * 9, y + dy,
                    fmt::format("{}, {}: {}", c.rows[r].first, c.series[i],
                                x ? std::to_string(std::llround(*x)) : c.none_label));
    }
  }
  return out + leg + "</svg>\n";
}

}  // namespace credit::report::svg
