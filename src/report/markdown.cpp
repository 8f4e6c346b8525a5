#include "report/markdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace credit::report {

namespace {

constexpr std::size_t kWrap = 100;

// Words refilled into lines of at most kWrap columns; `indent` starts every line after the first.
std::string wrap(const std::string& text, const std::string& first, const std::string& indent) {
  std::istringstream words(text);
  std::string out = first, word;
  std::size_t column = first.size();
  bool line_empty = true;
  while (words >> word) {
    if (!line_empty && column + 1 + word.size() > kWrap) {
      out += "\n" + indent;
      column = indent.size();
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_empty = false;
  }
  return out + "\n";
}

std::string escape_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out.empty() ? " " : out;
}

std::string table(const Table& t) {
  std::vector<std::string> head = t.header;
  // Markdown has one header row: a column group (the last columns) becomes a prefix of each cell.
  std::size_t spanned = 0;
  for (const auto& g : t.groups) spanned += std::size_t(g.second);
  std::size_t col = head.size() - std::min(spanned, head.size());
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    const std::string prefix = g < t.group_prefix.size() ? t.group_prefix[g] + " " : "";
    for (int i = 0; i < t.groups[g].second && col < head.size(); ++i, ++col) head[col] = prefix + head[col];
  }
  std::vector<std::vector<std::string>> rows{head};
  for (const auto& r : t.rows) rows.push_back(r);
  std::vector<std::size_t> width(head.size(), 3);
  for (auto& r : rows) {
    r.resize(head.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
      r[i] = escape_cell(r[i]);
      width[i] = std::max(width[i], r[i].size());
    }
  }
  auto numeric = [&](std::size_t i) { return i < t.numeric.size() && t.numeric[i]; };
  std::string out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    out += '|';
    for (std::size_t i = 0; i < head.size(); ++i) {
      const std::string pad(width[i] - rows[k][i].size(), ' ');
      out += ' ' + (numeric(i) ? pad + rows[k][i] : rows[k][i] + pad) + " |";
    }
    out += '\n';
    if (k == 0) {
      out += '|';
      for (std::size_t i = 0; i < head.size(); ++i)
        out += numeric(i) ? ' ' + std::string(width[i] - 1, '-') + ": |" : ' ' + std::string(width[i], '-') + " |";
      out += '\n';
    }
  }
  return out;
}

}  // namespace

std::string render_markdown(const Document& doc) {
  std::string out = "# " + doc.title + "\n";
  for (const auto& s : doc.sections) {
    if (!s.title.empty()) out += fmt::format("\n{} {}\n", std::string(std::size_t(std::max(s.level, 1)), '#'), s.title);
    for (const auto& b : s.blocks) {
      out += '\n';
      if (const auto* p = std::get_if<Paragraph>(&b)) {
        out += wrap(p->text, "", "");
      } else if (const auto* l = std::get_if<Bullets>(&b)) {
        for (const auto& item : l->items) out += wrap(item, "- ", "  ");
      } else {
        out += table(std::get<Table>(b));
      }
    }
  }
  return out;
}

}  // namespace credit::report
