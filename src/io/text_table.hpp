#pragma once
// A plain-text table whose columns are as wide as their widest cell, the header's included, so that a long
// workload name (softmax_dropout_bwd) or a large shape (M = 2^31 - 1, N = 2^30) never shifts a column: the
// CLI's tables are built here rather than with fixed widths such as {:<12}.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace credit::io {

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::right;
  };

  // `gap` separates the columns.
  explicit TextTable(std::vector<Column> columns, std::string gap = " ")
      : columns_(std::move(columns)), gap_(std::move(gap)) {}

  // A line under the header (units: "B", "B/elem"), one cell per column, aligned as the columns are.
  void units(std::vector<std::string> cells) { units_ = std::move(cells); }

  // One row: a cell per column, or fewer (a refused candidate: its name and "no"); `tail`, when not empty,
  // follows the last cell given after two spaces, unaligned (a reason, a note).
  void row(std::vector<std::string> cells, std::string tail = "") {
    rows_.push_back({std::move(cells), std::move(tail)});
  }

  std::size_t width(std::size_t column) const {
    std::size_t w = columns_[column].header.size();
    if (column < units_.size()) w = std::max(w, units_[column].size());
    for (const auto& r : rows_)
      if (column < r.cells.size()) w = std::max(w, r.cells[column].size());
    return w;
  }

  // The header, the units line if any, then the rows; every line ends in '\n', without trailing blanks.
  std::string str() const {
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < columns_.size(); ++c) widths.push_back(width(c));
    std::vector<std::string> header;
    for (const auto& c : columns_) header.push_back(c.header);
    std::string out = line(header, "", widths);
    if (!units_.empty()) out += line(units_, "", widths);
    for (const auto& r : rows_) out += line(r.cells, r.tail, widths);
    return out;
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    std::string tail;
  };

  std::string line(const std::vector<std::string>& cells, const std::string& tail,
                   const std::vector<std::size_t>& widths) const {
    std::string s;
    for (std::size_t c = 0; c < cells.size() && c < columns_.size(); ++c) {
      if (c) s += gap_;
      const std::string pad(widths[c] - std::min(widths[c], cells[c].size()), ' ');
      s += columns_[c].align == Align::left ? cells[c] + pad : pad + cells[c];
    }
    if (!tail.empty()) s += "  " + tail;
    s.erase(s.find_last_not_of(' ') + 1);
    return s + "\n";
  }

  std::vector<Column> columns_;
  std::string gap_;
  std::vector<std::string> units_;
  std::vector<Row> rows_;
};

}  // namespace credit::io
