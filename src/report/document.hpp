#pragma once
// The report as text blocks, independent of the output format: markdown.cpp and html.cpp render
// the same document, so both outputs always carry the same tables and numbers.
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace credit::report {

struct Paragraph {
  std::string text;
};

struct Bullets {
  std::vector<std::string> items;
};

struct Table {
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<std::vector<std::string>> rows;
  // Optional column groups above the header (label, number of columns), e.g. one per device;
  // HTML spans them, Markdown prefixes the group's short name to each header cell instead.
  std::vector<std::pair<std::string, int>> groups;
  std::vector<std::string> group_prefix;  // per group: what Markdown prefixes ("D1")
};

using Block = std::variant<Paragraph, Bullets, Table>;

struct Section {
  std::string id;     // stable anchor; the HTML places a section's charts by it
  std::string title;
  int level = 2;      // heading level
  std::vector<Block> blocks;
};

struct Document {
  std::string title;
  std::vector<Section> sections;
};

}  // namespace credit::report
