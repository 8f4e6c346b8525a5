#pragma once
// The report as one self-contained HTML page: the Markdown's tables plus inline SVG charts, with
// its style inline and no scripts, fonts or other resources to fetch.
#include <map>
#include <string>
#include <vector>

#include "report/document.hpp"

namespace credit::report {

// `charts`: SVG fragments keyed by section id; each section shows its charts before its first table.
std::string render_html(const Document& doc, const std::map<std::string, std::vector<std::string>>& charts);

}  // namespace credit::report
