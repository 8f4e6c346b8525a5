#include "core/shape.hpp"

#include <charconv>
#include <limits>
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
                              "; expected comma-separated positive integers");
}

}  // namespace

Shape parse_shape(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) bad_shape(text, "no 'x' between M and N");
  Shape s{};
  if (!parse_positive(text.substr(0, x), s.m)) bad_shape(text, "M is not a positive integer");
  if (!parse_positive(text.substr(x + 1), s.n)) bad_shape(text, "N is not a positive integer");
  return s;
}

std::string to_string(const Shape& shape) {
  return std::to_string(shape.m) + "x" + std::to_string(shape.n);
}

std::vector<int> parse_int_list(std::string_view text) {
  if (text.empty()) bad_list(text, "empty");
  std::vector<int> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const auto item = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    long long v = 0;
    if (!parse_positive(item, v) || v > std::numeric_limits<int>::max())
      bad_list(text, "item " + std::to_string(out.size() + 1) + " (\"" + std::string(item) +
                         "\") is not a positive integer that fits in int");
    out.push_back(static_cast<int>(v));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace credit
