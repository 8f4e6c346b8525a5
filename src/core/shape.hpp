#pragma once
// Command-line shapes ("4096x65536") and integer lists ("2,4,8,16"), parsed strictly so a
// typo fails loudly instead of silently measuring the wrong problem.
#include <string>
#include <string_view>
#include <vector>

namespace credit {

struct Shape {
  long long m;  // rows
  long long n;  // row length
};

// "MxN" or "MXN", both positive decimal integers, nothing else (no signs, spaces, suffixes).
// Throws std::invalid_argument quoting the input and the expected form.
Shape parse_shape(std::string_view text);

// "4096x65536".
std::string to_string(const Shape& shape);

// Comma-separated positive integers that fit in int, e.g. "2,4,8,16"; no empty items, no
// spaces, at least one item. Order and duplicates are kept. Throws std::invalid_argument.
std::vector<int> parse_int_list(std::string_view text);

}  // namespace credit
