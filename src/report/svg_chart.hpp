#pragma once
// Small self-contained SVG charts for the HTML report: line charts (linear or log2 x), grouped
// bars and a dot plot. Plain strings, no scripts and no external fonts, so the page stays one
// file that renders offline. Every marker carries a <title> with its exact value (a tooltip).
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace credit::report::svg {

struct Axis {
  std::string label;  // with its unit, e.g. "row width N (elements)"
  bool log2 = false;  // ticks at powers of two, labelled 4K, 8K, ...
  std::optional<double> min, max;  // default: the data's range (linear axes include 0 only if asked)
};

// Colour and marker are picked from `style` (an index into a colour-blind-safe palette).
struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in the given order
  int style = 0;
  bool dashed = false;
};

// A row of short texts under the x axis, each at its data x (e.g. the P chosen at each width);
// texts that would overlap go to a second line.
struct Label {
  enum Tone { plain, muted, alert };  // muted: grey; alert: bold vermilion
  double x = 0;
  std::string text, tip;  // tip: the tooltip
  Tone tone = plain;
};
struct LabelRow {
  std::string name;  // at most about 9 characters: it sits left of the plot
  std::vector<Label> labels;
};

struct LineChart {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  std::optional<double> reference_y;  // a horizontal reference line (parity at 1)
  std::string reference_label;
  std::vector<LabelRow> label_rows;
  int width = 420, height = 290;
};

struct BarChart {
  std::string title;
  std::string x_label, y_label;
  std::vector<std::string> series;  // one bar per series in every group
  std::vector<std::pair<std::string, std::vector<std::optional<double>>>> groups;  // label, value per series
  std::optional<double> y_max;      // default: the largest bar plus 5%
  int width = 420, height = 290;
};

// One row per category (e.g. workload), one marker per series at x; nullopt is drawn in a
// "none" column right of the axis (e.g. no crossover found).
struct DotPlot {
  std::string title;
  Axis x;
  std::vector<std::string> series;
  std::vector<std::pair<std::string, std::vector<std::optional<double>>>> rows;
  std::string none_label = "none";
  int width = 420;
};

// The y range a line chart is drawn over before it is widened to whole ticks: y.min and y.max
// where set, else the data's (the reference line included) with 6% of air.
std::pair<double, double> y_range(const LineChart& c);
double y_max(const BarChart& c);
// Panels of one chart on one scale: every panel's y range becomes the union of theirs.
void share_y_range(std::vector<LineChart>& panels);
void share_y_range(std::vector<BarChart>& panels);

std::string line_chart(const LineChart& c);
std::string bar_chart(const BarChart& c);
std::string dot_plot(const DotPlot& c);

// "4K", "128K", "1M" for exact multiples of 1024, else the number: labels for widths N.
std::string width_label(double n);
// Text made safe for XML element content and attribute values.
std::string escape(const std::string& s);

}  // namespace credit::report::svg
