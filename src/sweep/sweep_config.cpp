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

const std::string kRowsText = "2^31 - 1 (one CTA per row: the grid's x dimension)";
const std::string kWidthText = "2^30 (the kernels index a row with a 32-bit int)";
const std::string kSplitText = std::to_string(kMaxGlobalSplit) + " (CTAs per row of the global-memory schedules)";
const std::string kSamplesText = std::to_string(kMaxConfigSamples) + " (each sample is a timed launch after an L2 flush)";
const std::string kWarmupText = std::to_string(kMaxConfigWarmup);
const std::string kMaxBytesText = "1e15 (no GPU holds a petabyte; leave max_bytes out for no limit)";

// The value as written, for messages: 2147483647, 1e+20, "4096", [1, 2].
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// An integer from `lo` to `hi`, else an error naming the value and the range.
template <class T>
T int_field(const nlohmann::json& v, const std::filesystem::path& p, const std::string& field, long long lo,
            long long hi, const std::string& hi_text) {
  if (!int_in(v, lo, hi))
    bad(p, field, std::string(lo == 1 ? "expected a positive integer" : lo == 0 ? "expected a non-negative integer"
                                                                              : "expected an integer from " + std::to_string(lo)) +
                      " up to " + hi_text + ", got " + shown(v));
  return v.get<T>();
}

// Positive integers up to `most`, none twice (a repeated item would be measured twice).
template <class T>
std::vector<T> positive_list(const nlohmann::json& j, const std::filesystem::path& p, const std::string& field,
                             long long most, const std::string& most_text) {
  if (!j.is_array() || j.empty()) bad(p, field, "expected a non-empty array of positive integers, got " + shown(j));
  std::vector<T> v;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "]";
    const T x = int_field<T>(j[i], p, at, 1, most, most_text);
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
  if (!j.is_object()) bad(path, "(file)", std::string("expected a JSON object (a sweep config), got ") + j.type_name());
  // A results file given as the config: say what it is rather than "unknown key calibration".
  if (j.contains("schema_version") && j.contains("kind") && j["kind"].is_string())
    bad(path, "(file)", "is a results file of kind \"" + j["kind"].get<std::string>() +
                            "\", expected a sweep config (configs/*.json)");
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
  if (j.contains("splits")) c.splits = positive_list<int>(j["splits"], path, "splits", kMaxGlobalSplit, kSplitText);
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
    const auto& cs = j["cluster_sizes"];
    if (!cs.is_array() || cs.empty()) bad(path, "cluster_sizes", "expected a non-empty array of 2, 4, 8 and 16, got " + shown(cs));
    for (size_t i = 0; i < cs.size(); ++i)  // before positive_list, whose range would name 2^31 - 1
      if (!int_in(cs[i], 2, 16) || !is_cluster_size(cs[i].get<int>()))
        bad(path, "cluster_sizes[" + std::to_string(i) + "]", "expected a cluster size, 2, 4, 8 or 16, got " + shown(cs[i]));
    c.cluster_sizes = positive_list<int>(cs, path, "cluster_sizes", 16, "16");
  }
  if (j.contains("rows")) {
    if (!j["rows"].is_object()) bad(path, "rows", "expected an object {workload: M}");
    for (const auto& [k, v] : j["rows"].items()) {
      try {
        find_workload(k);
      } catch (const std::invalid_argument& e) {
        bad(path, "rows." + k, e.what());
      }
      c.rows[k] = int_field<long long>(v, path, "rows." + k, 1, kMaxRows, kRowsText);
    }
  }
  if (j.contains("samples")) c.samples = int_field<int>(j["samples"], path, "samples", 1, kMaxConfigSamples, kSamplesText);
  if (j.contains("warmup")) c.warmup = int_field<int>(j["warmup"], path, "warmup", 0, kMaxConfigWarmup, kWarmupText);
  if (j.contains("passes")) {
    if (!int_in(j["passes"], 1, 2)) bad(path, "passes", "expected 1 or 2, got " + shown(j["passes"]));
    c.passes = j["passes"].get<int>();
    if (c.metric != Metric::KernelTime) bad(path, "passes", "only with \"metric\": \"kernel_time\"");
  }
  if (j.contains("max_bytes")) {
    const auto& v = j["max_bytes"];
    if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > kMaxConfigBytes)
      bad(path, "max_bytes", "expected a positive number of bytes up to " + kMaxBytesText + ", got " + shown(v));
    c.max_bytes = v.get<double>();
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
