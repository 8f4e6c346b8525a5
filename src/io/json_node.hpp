#pragma once
// Checked reading of a JSON results document: Node, a position in it that names its field path and file in every
// error, and the readers and writers of the pieces every kind of results file shares (flat field tables, Stat,
// DeviceInfo, maps keyed by P, workload names and extents). io/json_records.hpp tells the layout.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/device_info.hpp"
#include "core/run_stat.hpp"
#include "io/json_fields.hpp"
#include "io/results_file_error.hpp"

namespace credit {

// Writers, found by nlohmann::json through ADL (`nlohmann::json j = stat;`).
void to_json(nlohmann::json& j, const DeviceInfo& d);
void to_json(nlohmann::json& j, const Stat& s);

namespace io {

using json = nlohmann::json;

// JSON has no NaN or infinity; null says "no number" without turning it into a string.
json number(double d);

// A map keyed by P as an array of Stats sorted by P, the key inlined as "p".
json stat_map(const std::map<int, Stat>& m);

// A double as JSON prints it, for messages.
std::string fmt_double(double d);

// Every field of a flat table (io/json_fields.hpp); doubles as numbers, null when not finite.
template <class T, std::size_t N>
json write_flat(const T& x, const io::FlatField<T> (&fields)[N]) {
  json j = json::object();
  for (const auto& f : fields)
    std::visit(
        [&](auto member) {
          if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x.*member)>, double>) j[f.name] = number(x.*member);
          else j[f.name] = x.*member;
        },
        f.member);
  return j;
}

// A position in the document being read: the value, its field path, and the file name, so that
// every error can say exactly where it is.
class Node {
 public:
  Node(const json& j, std::string path, const std::string& file)
      : j_(&j), path_(std::move(path)), file_(&file) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw ResultsFileError(*file_, path_, problem);
  }
  [[noreturn]] void expected(const char* what) const {
    fail(std::string("expected ") + what + ", got " + j_->type_name());
  }

  const json& value() const { return *j_; }
  friend const std::string& file_of(const Node& n) { return *n.file_; }
  const std::string& path() const { return path_; }
  bool is_null() const { return j_->is_null(); }

  Node field(const char* key) const {
    if (!j_->is_object()) expected("an object");
    const auto it = j_->find(key);
    if (it == j_->end()) Node(*j_, join(key), *file_).fail("missing field");
    return Node(*it, join(key), *file_);
  }
  // Absent and null both mean "no value" for optional fields.
  bool has(const char* key) const {
    if (!j_->is_object()) expected("an object");
    const auto it = j_->find(key);
    return it != j_->end() && !it->is_null();
  }
  std::size_t size() const {
    if (!j_->is_array()) expected("an array");
    return j_->size();
  }
  Node item(std::size_t i) const {
    return Node((*j_)[i], path_ + "[" + std::to_string(i) + "]", *file_);
  }

  double num() const {
    if (j_->is_null()) return std::nan("");  // how non-finite values are written
    if (!j_->is_number()) expected("a number");
    return j_->get<double>();
  }
  template <class T>
  T integer() const {
    if (j_->is_number_unsigned()) {
      const auto v = j_->get<std::uint64_t>();
      if (std::in_range<T>(v)) return static_cast<T>(v);
    } else if (j_->is_number_integer()) {
      const auto v = j_->get<std::int64_t>();
      if (std::in_range<T>(v)) return static_cast<T>(v);
    } else if (j_->is_number_float()) {
      fail("expected an integer, got number " + j_->dump());
    } else {
      expected("an integer");
    }
    fail("integer " + j_->dump() + " out of range");
  }
  std::string str() const {
    if (!j_->is_string()) expected("a string");
    return j_->get<std::string>();
  }
  bool boolean() const {
    if (!j_->is_boolean()) expected("a boolean");
    return j_->get<bool>();
  }

 private:
  std::string join(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  const json* j_;
  std::string path_;
  const std::string* file_;
};

std::vector<std::string> read_strings(const Node& n);

// Reads the fields of a flat table (io/json_fields.hpp) into x: each required, or with
// `optional` those present and not null (the others keep x's value).
template <class T, std::size_t N>
void read_fields(const Node& n, const io::FlatField<T> (&fields)[N], T& x, bool optional = false) {
  for (const auto& f : fields) {
    if (optional && !n.has(f.name)) continue;
    std::visit(
        [&](auto member) {
          using V = std::remove_reference_t<decltype(x.*member)>;
          const Node v = n.field(f.name);
          if constexpr (std::is_same_v<V, std::string>) x.*member = v.str();
          else if constexpr (std::is_same_v<V, double>) x.*member = v.num();
          else if constexpr (std::is_same_v<V, bool>) x.*member = v.boolean();
          else x.*member = v.integer<V>();
        },
        f.member);
  }
}

template <class T, std::size_t N>
T read_flat(const Node& n, const io::FlatField<T> (&fields)[N]) {
  T x{};
  read_fields(n, fields, x);
  return x;
}

DeviceInfo read_device(const Node& n);

Stat read_stat(const Node& n);

// [{"p": P, ...}, ...] into a map, rejecting a repeated P (a silent overwrite would lose data).
template <class V, class ReadValue>
std::map<int, V> read_p_map(const Node& n, ReadValue read_value) {
  std::map<int, V> out;
  for (std::size_t i = 0, k = n.size(); i < k; ++i) {
    const Node e = n.item(i);
    const Node p = e.field("p");
    if (!out.emplace(p.integer<int>(), read_value(e)).second)
      p.fail("P " + p.value().dump() + " appears more than once");
  }
  return out;
}

// A workload this build declares (a file naming another could not be re-checked or predicted).
std::string read_workload(const Node& n);

// A positive integer: a row count or width.
long long read_extent(const Node& n);

}  // namespace io
}  // namespace credit
