#pragma once
// The report as GitHub-flavoured Markdown that also reads well as plain text on a terminal:
// paragraphs wrapped at 100 columns, table columns padded to equal width.
#include <string>

#include "report/document.hpp"

namespace credit::report {

std::string render_markdown(const Document& doc);

}  // namespace credit::report
