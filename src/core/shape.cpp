#include "core/shape.hpp"

#include <charconv>
#include <limits>
#include <set>
#include <stdexcept>
#include <system_error>

namespace credit {
namespace {

// True when all of `s` is a decimal integer > 0 that fits in long long. from_chars alone would
// accept a leading '-' and stop at the first non-digit, so both are checked here.
bool parse_positive(std::string_view s, long long& out) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end && out > 0;
}

[[noreturn]] void bad_shape(std::string_view text, const char* what) {
  throw std::invalid_argument("invalid shape \"" + std::string(text) + "\": " + what +
                              "; expected MxN, e.g. 4096x65536");
}

[[noreturn]] void bad_list(std::string_view text, const std::string& what) {
  throw std::invalid_argument("invalid list \"" + std::string(text) + "\": " + what +
                              "; expected comma-separated positive integers or ranges FIRST:LAST:pow2, "
                              "FIRST:LAST:+STEP");
}

constexpr std::size_t kMaxListItems = 4096;  // a range that expands beyond this is a typo

bool parse_item(std::string_view s, long long& out) {
  return parse_positive(s, out) && out <= std::numeric_limits<int>::max();
}

// "FIRST:LAST:pow2" (the powers of two in [FIRST, LAST]) or "FIRST:LAST:+STEP" (FIRST,
// FIRST+STEP, ... up to LAST), appended to `out`; false with `why` set when malformed.
bool expand_range(std::string_view item, std::vector<int>& out, std::string& why) {
  const auto c1 = item.find(':');
  const auto c2 = item.find(':', c1 + 1);
  if (c2 == std::string_view::npos || item.find(':', c2 + 1) != std::string_view::npos) {
    why = "a range has three parts, FIRST:LAST:pow2 or FIRST:LAST:+STEP";
    return false;
  }
  long long first = 0, last = 0;
  if (!parse_item(item.substr(0, c1), first) || !parse_item(item.substr(c1 + 1, c2 - c1 - 1), last)) {
    why = "FIRST and LAST must be positive integers that fit in int";
    return false;
  }
  if (first > last) {
    why = "FIRST is above LAST";
    return false;
  }
  const std::string_view step = item.substr(c2 + 1);
  const std::size_t before = out.size();
  if (step == "pow2") {
    for (long long v = 1; v <= last; v *= 2)
      if (v >= first) out.push_back(static_cast<int>(v));
    if (out.size() == before) {
      why = "no power of two between FIRST and LAST";
      return false;
    }
  } else {
    long long k = 0;
    if (step.empty() || step.front() != '+' || !parse_item(step.substr(1), k)) {
      why = "the step is pow2 or +STEP with STEP a positive integer";
      return false;
    }
    if ((last - first) / k + 1 > static_cast<long long>(kMaxListItems)) {
      why = "more than " + std::to_string(kMaxListItems) + " items";
      return false;
    }
    for (long long v = first; v <= last; v += k) out.push_back(static_cast<int>(v));
  }
  return true;
}

}  // namespace

Shape parse_shape(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) bad_shape(text, "no 'x' between M and N");
  Shape s{};
  if (!parse_positive(text.substr(0, x), s.m)) bad_shape(text, "M is not a positive integer");
  if (!parse_positive(text.substr(x + 1), s.n)) bad_shape(text, "N is not a positive integer");
  if (s.m > kMaxRows)
    bad_shape(text, "M exceeds 2^31 - 1 rows (one CTA per row: the grid's x dimension)");
  if (s.n > kMaxWidth)
    bad_shape(text, "N exceeds 2^30 elements (the kernels index a row with a 32-bit int)");
  return s;
}

std::string to_string(const Shape& shape) {
  return std::to_string(shape.m) + "x" + std::to_string(shape.n);
}

std::vector<int> parse_int_list(std::string_view text) {
  if (text.empty()) bad_list(text, "empty");
  std::vector<int> out;
  std::set<int> seen, items;  // in out; given as single items
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const auto item = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    const std::string where = "item \"" + std::string(item) + "\"";
    if (item.find(':') != std::string_view::npos) {
      std::vector<int> range;
      std::string why;
      if (!expand_range(item, range, why)) bad_list(text, where + " is not a range: " + why);
      // Ranges include LAST, so adjacent ones meet ("1024:4096:+1024,4096:65536:pow2"): kept once.
      for (int v : range)
        if (seen.insert(v).second) out.push_back(v);
      if (out.size() > kMaxListItems)
        bad_list(text, "more than " + std::to_string(kMaxListItems) + " items");
    } else {
      long long v = 0;
      if (!parse_item(item, v)) bad_list(text, where + " is not a positive integer that fits in int");
      // "2,2" is a typo, and would time every candidate twice.
      if (!items.insert(static_cast<int>(v)).second) bad_list(text, std::to_string(v) + " is given twice");
      if (seen.insert(static_cast<int>(v)).second) out.push_back(static_cast<int>(v));
    }
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace credit
