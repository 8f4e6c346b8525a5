#pragma once
// How numbers look in report cells: one place, so the tables and their tests agree.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>

namespace credit::report::cells {

inline constexpr const char* kNone = "-";

inline std::string fixed(std::optional<double> v, int decimals) {
  return v && std::isfinite(*v) ? fmt::format("{:.{}f}", *v, decimals) : kNone;
}
inline std::string speedup(std::optional<double> v) { return fixed(v, 3); }  // as the paper: 0.738
inline std::string ms(std::optional<double> v) { return fixed(v, 4); }
inline std::string pct(std::optional<double> v) { return fixed(v, 1); }
inline std::string ratio(int part, int whole) { return fmt::format("{}/{}", part, whole); }
inline std::string percent(int part, int whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * part / whole) : std::string(kNone);
}
inline std::string width(std::optional<long long> n) { return n ? std::to_string(*n) : "none"; }

}  // namespace credit::report::cells
