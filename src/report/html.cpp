#include "report/html.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/svg_chart.hpp"

namespace credit::report {

namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; font-size: 14px; color: #1a1a1a; margin: 0 auto; padding: 16px 24px;
       max-width: 1400px; line-height: 1.45; }
h1 { font-size: 24px; margin: 8px 0; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-top: 8px; border-top: 1px solid #ddd; }
p { max-width: 960px; margin: 6px 0; }
code { background: #f2f2f2; padding: 0 3px; border-radius: 3px; }
nav { font-size: 13px; columns: 2; max-width: 960px; }
nav a { color: #0b5394; text-decoration: none; display: block; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; margin: 10px 0; }
.charts svg { border: 1px solid #e4e4e4; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0 12px; }
th, td { border: 1px solid #d9d9d9; padding: 2px 7px; white-space: nowrap; }
th { background: #f3f5f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.wrap { white-space: normal; min-width: 320px; }
tr:nth-child(even) td { background: #fafafa; }
)";

// Escaped text; `code` spans (the Markdown's backticks) become <code>.
std::string inline_text(const std::string& s) {
  std::string out;
  bool in_code = false;
  std::string run;
  for (char c : s) {
    if (c != '`') {
      run += c;
      continue;
    }
    out += svg::escape(run) + (in_code ? "</code>" : "<code>");
    run.clear();
    in_code = !in_code;
  }
  out += svg::escape(run);
  return in_code ? out + "</code>" : out;
}

std::string table(const Table& t) {
  std::string out = "<div class=\"scroll\"><table>\n<thead>\n";
  if (!t.groups.empty()) {
    int spanned = 0;
    for (const auto& g : t.groups) spanned += g.second;
    out += "<tr>";
    if (int(t.header.size()) > spanned) out += fmt::format("<th colspan=\"{}\"></th>", int(t.header.size()) - spanned);
    for (const auto& g : t.groups) out += fmt::format("<th colspan=\"{}\">{}</th>", g.second, inline_text(g.first));
    out += "</tr>\n";
  }
  out += "<tr>";
  for (const auto& h : t.header) out += "<th>" + inline_text(h) + "</th>";
  out += "</tr>\n</thead>\n<tbody>\n";
  for (const auto& r : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < r.size(); ++i) {
      const bool num = i < t.numeric.size() && t.numeric[i];
      const bool wrap = !num && r[i].size() > 60;  // long reasons and point lists wrap
      out += std::string(num ? "<td class=\"num\">" : wrap ? "<td class=\"wrap\">" : "<td>") + inline_text(r[i]) +
             "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table></div>\n";
}

std::string chart_block(const std::vector<std::string>& svgs) {
  std::string out = "<div class=\"charts\">\n";
  for (const auto& s : svgs) out += s;
  return out + "</div>\n";
}

}  // namespace

std::string render_html(const Document& doc, const std::map<std::string, std::vector<std::string>>& charts) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    svg::escape(doc.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" +
                    svg::escape(doc.title) + "</h1>\n<nav>\n";
  for (const auto& s : doc.sections)
    if (!s.title.empty()) out += fmt::format("<a href=\"#{}\">{}</a>\n", s.id, inline_text(s.title));
  out += "</nav>\n";
  for (const auto& s : doc.sections) {
    out += fmt::format("<section id=\"{}\">\n", s.id);
    if (!s.title.empty()) out += fmt::format("<h{0}>{1}</h{0}>\n", std::clamp(s.level, 2, 6), inline_text(s.title));
    const auto it = charts.find(s.id);
    bool charts_shown = it == charts.end() || it->second.empty();
    for (const auto& b : s.blocks) {
      if (const auto* p = std::get_if<Paragraph>(&b)) {
        out += "<p>" + inline_text(p->text) + "</p>\n";
        continue;
      }
      if (!charts_shown) {
        out += chart_block(it->second);
        charts_shown = true;
      }
      if (const auto* l = std::get_if<Bullets>(&b)) {
        out += "<ul>\n";
        for (const auto& item : l->items) out += "<li>" + inline_text(item) + "</li>\n";
        out += "</ul>\n";
      } else {
        out += table(std::get<Table>(b));
      }
    }
    if (!charts_shown) out += chart_block(it->second);
    out += "</section>\n";
  }
  return out + "</body>\n</html>\n";
}

}  // namespace credit::report
