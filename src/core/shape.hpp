#pragma once
// Command-line shapes ("4096x65536") and integer lists ("2,4,8,16"), parsed strictly so a
// typo fails loudly instead of silently measuring the wrong problem.
#include <string>
#include <string_view>
#include <vector>

namespace credit {

// What the kernels can index: a row's length is an int (RowOperands::n) and the schedules
// accept at most 2^30 elements; one CTA per row puts M in gridDim.x (at most 2^31 - 1).
// M x N then fits a long long (the kernels' row * n) with room to spare.
inline constexpr long long kMaxWidth = 1LL << 30;
inline constexpr long long kMaxRows = (1LL << 31) - 1;

struct Shape {
  long long m;  // rows
  long long n;  // row length
};

// "MxN" or "MXN", both positive decimal integers, nothing else (no signs, spaces, suffixes),
// with M <= kMaxRows and N <= kMaxWidth. Throws std::invalid_argument quoting the input and the
// expected form.
Shape parse_shape(std::string_view text);

// "4096x65536".
std::string to_string(const Shape& shape);

// Comma-separated positive integers that fit in int, e.g. "2,4,8,16"; no empty items, no
// spaces, at least one item. Order is kept; a value given twice as a single item ("2,2") is an
// error. An item may be a range:
// "4096:65536:pow2" is every power of two from 4096 to 65536 (4096,8192,...,65536) and
// "1024:4096:+1024" is 1024,2048,3072,4096 (LAST is included when the step lands on it);
// where a range overlaps another item, the value is kept once, where it first appears;
// at most 4096 items in all. Throws std::invalid_argument.
std::vector<int> parse_int_list(std::string_view text);

}  // namespace credit
