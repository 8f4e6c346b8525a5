#include "sweep/sweep_config.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "core/shape.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "io/read_file.hpp"

namespace credit {

SweepConfig paper_sweep() { return SweepConfig{}; }

namespace {

[[noreturn]] void bad(const std::filesystem::path& p, const std::string& field, const std::string& why) {
  throw std::invalid_argument(p.string() + ": " + field + ": " + why);
}

// Checked as a JSON number before any conversion: get<int> of 2^32 + 2 would wrap to 2.
bool int_in(const nlohmann::json& v, long long lo, long long hi) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return std::cmp_greater_equal(u, lo) && std::cmp_less_equal(u, hi);
  }
  return v.is_number_integer() && v.get<long long>() >= lo && v.get<long long>() <= hi;
}

constexpr long long kIntMax = std::numeric_limits<int>::max();
const std::string kIntMaxText = "2^31 - 1";
const std::string kRowsText = "2^31 - 1 (one CTA per row: the grid's x dimension)";
const std::string kWidthText = "2^30 (the kernels index a row with a 32-bit int)";

// Positive integers up to `most`, none twice (a repeated item would be measured twice).
template <class T>
std::vector<T> positive_list(const nlohmann::json& j, const std::filesystem::path& p, const std::string& field,
                             long long most, const std::string& most_text) {
  if (!j.is_array() || j.empty()) bad(p, field, "expected a non-empty array of positive integers");
  std::vector<T> v;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "]";
    if (!int_in(j[i], 1, most)) bad(p, at, "expected a positive integer up to " + most_text);
    const T x = j[i].get<T>();
    if (std::find(v.begin(), v.end(), x) != v.end()) bad(p, at, std::to_string(x) + " is given twice");
    v.push_back(x);
  }
  return v;
}

}  // namespace

SweepConfig read_sweep_config(const std::filesystem::path& path) {
  const FileText f = read_regular_file(path, "a sweep config");
  if (!f.error.empty()) bad(path, "(file)", f.error);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f.text);
  } catch (const nlohmann::json::parse_error& e) {
    bad(path, "(file)", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) bad(path, "(file)", "expected a JSON object");
  // A misspelt key ("widht") must not silently run the default sweep.
  for (const auto& [key, value] : j.items()) {
    if (std::find(kSweepConfigKeys.begin(), kSweepConfigKeys.end(), key) != kSweepConfigKeys.end()) continue;
    std::string known;
    for (const char* k : kSweepConfigKeys) known += (known.empty() ? "" : ", ") + std::string(k);
    bad(path, key, "unknown key (known: " + known + ")");
  }
  SweepConfig c;
  if (j.contains("name")) {
    if (!j["name"].is_string()) bad(path, "name", "expected a string");
    c.name = j["name"].get<std::string>();
  }
  if (j.contains("workloads")) {
    const auto& w = j["workloads"];
    if (!w.is_array()) bad(path, "workloads", "expected an array of workload names");
    for (size_t i = 0; i < w.size(); ++i) {
      if (!w[i].is_string()) bad(path, "workloads[" + std::to_string(i) + "]", "expected a string");
      try {
        find_workload(w[i].get<std::string>());
      } catch (const std::invalid_argument& e) {
        bad(path, "workloads[" + std::to_string(i) + "]", e.what());
      }
      if (std::find(c.workloads.begin(), c.workloads.end(), w[i].get<std::string>()) != c.workloads.end())
        bad(path, "workloads[" + std::to_string(i) + "]", "\"" + w[i].get<std::string>() + "\" is given twice");
      c.workloads.push_back(w[i].get<std::string>());
    }
  }
  if (j.contains("metric")) {
    const auto& m = j["metric"];
    if (m == "kernel_time") c.metric = Metric::KernelTime;
    else if (m == "host_completion") c.metric = Metric::HostCompletion;
    else bad(path, "metric", "expected \"kernel_time\" or \"host_completion\"");
  }
  if (j.contains("splits")) {
    c.splits = positive_list<int>(j["splits"], path, "splits", kIntMax, kIntMaxText);
    for (size_t i = 0; i < c.splits.size(); ++i)
      if (c.splits[i] > kMaxGlobalSplit)
        bad(path, "splits[" + std::to_string(i) + "]", "more than " + std::to_string(kMaxGlobalSplit) + " CTAs per row");
  }
  for (const char* k : {"row_counts", "switch_rows"}) {
    if (!j.contains(k)) continue;
    if (c.metric != Metric::HostCompletion && std::string(k) == "switch_rows")
      bad(path, k, "only with \"metric\": \"host_completion\"");
    (std::string(k) == "row_counts" ? c.row_counts : c.switch_rows) =
        positive_list<long long>(j[k], path, k, kMaxRows, kRowsText);
  }
  if (j.contains("widths"))
    c.widths = positive_list<long long>(j["widths"], path, "widths", kMaxWidth, kWidthText);
  if (j.contains("cluster_sizes")) {
    c.cluster_sizes = positive_list<int>(j["cluster_sizes"], path, "cluster_sizes", kIntMax, kIntMaxText);
    for (size_t i = 0; i < c.cluster_sizes.size(); ++i) {
      const int p = c.cluster_sizes[i];
      if (!is_cluster_size(p))
        bad(path, "cluster_sizes[" + std::to_string(i) + "]", "cluster size " + std::to_string(p) + " is not 2, 4, 8 or 16");
    }
  }
  if (j.contains("rows")) {
    if (!j["rows"].is_object()) bad(path, "rows", "expected an object {workload: M}");
    for (const auto& [k, v] : j["rows"].items()) {
      try {
        find_workload(k);
      } catch (const std::invalid_argument& e) {
        bad(path, "rows." + k, e.what());
      }
      if (!int_in(v, 1, kMaxRows)) bad(path, "rows." + k, "expected a positive integer up to " + kRowsText);
      c.rows[k] = v.get<long long>();
    }
  }
  for (const char* k : {"samples", "warmup"}) {
    if (!j.contains(k)) continue;
    if (!int_in(j[k], std::string(k) == "samples" ? 1 : 0, kIntMax))
      bad(path, k, "expected a non-negative integer up to " + kIntMaxText + " (samples >= 1)");
    (std::string(k) == "samples" ? c.samples : c.warmup) = j[k].get<int>();
  }
  if (j.contains("passes")) {
    if (!int_in(j["passes"], 1, 2))
      bad(path, "passes", "expected 1 or 2");
    if (c.metric != Metric::KernelTime) bad(path, "passes", "only with \"metric\": \"kernel_time\"");
    c.passes = j["passes"].get<int>();
  }
  if (j.contains("max_bytes")) {
    if (!j["max_bytes"].is_number() || !(j["max_bytes"].get<double>() > 0)) bad(path, "max_bytes", "expected a positive number");
    c.max_bytes = j["max_bytes"].get<double>();
  }
  if (j.contains("dtype")) {
    if (!j["dtype"].is_string()) bad(path, "dtype", "expected a string: f32, bf16 or f16");
    try {
      c.element = parse_element_type(j["dtype"].get<std::string>());
    } catch (const std::invalid_argument& e) {
      bad(path, "dtype", e.what());
    }
  }
  if (j.contains("traffic")) {
    if (!j["traffic"].is_boolean()) bad(path, "traffic", "expected true or false");
    if (c.metric != Metric::KernelTime) bad(path, "traffic", "only with \"metric\": \"kernel_time\"");
    c.traffic = j["traffic"].get<bool>();
  }
  if (!c.row_counts.empty() && !c.rows.empty()) bad(path, "rows", "give either \"rows\" or \"row_counts\", not both");
  return c;
}

std::vector<long long> row_counts_for(const SweepConfig& c, const std::string& workload, long long default_rows) {
  if (!c.row_counts.empty()) return c.row_counts;
  return {rows_for(c, workload, default_rows)};
}

long long rows_for(const SweepConfig& c, const std::string& workload, long long default_rows) {
  const auto it = c.rows.find(workload);
  return it == c.rows.end() ? default_rows : it->second;
}

}  // namespace credit
