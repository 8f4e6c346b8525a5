#include "traffic/ncu_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>

namespace credit::traffic {

std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') out.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

namespace {

const char* const kPermissionHelp =
    "Nsight Compute may not read this GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or let "
    "every user profile (the driver option NVreg_RestrictProfilingToAdminUsers=0; in a container, the host "
    "must allow it); see https://developer.nvidia.com/ERR_NVGPUCTRPERM";

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// "1,073,741,824" or "1.07e+09" -> the number; anything else (n/a, empty, trailing text): none.
std::optional<double> number(std::string s) {
  std::erase(s, ',');
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size() || !(v >= 0)) return std::nullopt;
  return v;
}

// "(1024, 1, 1)" (or "1024, 1, 1") -> 1024; 0 when it does not read.
long long grid_x(const std::string& g) {
  const std::size_t open = g.find('(');
  const long long v = std::atoll(g.c_str() + (open == std::string::npos ? 0 : open + 1));
  return v > 0 ? v : 0;
}

// "==PROF== Profiling "k" - 3: 0%....50%....100% - 2 passes" -> 2; 0 for any other line.
int replay_passes(std::string_view line) {
  if (!line.starts_with("==PROF== Profiling")) return 0;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  const std::size_t dash = line.rfind(" - ");
  if (dash == std::string_view::npos || !(line.ends_with(" pass") || line.ends_with(" passes"))) return 0;
  return std::atoi(std::string(line.substr(dash + 3)).c_str());
}

std::size_t column(const std::vector<std::string>& header, std::string_view name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? std::string::npos : std::size_t(it - header.begin());
}

std::string field(const std::vector<std::string>& row, std::size_t col) {
  return col < row.size() ? row[col] : std::string();
}

double bytes_of(const std::string& value, const std::string& unit, const std::string& metric,
                const std::string& kernel) {
  if (unit != "byte")
    throw ProfilerError("ncu reported " + metric + " of kernel " + kernel + " in \"" + unit +
                        "\", expected \"byte\" (credit asks for --print-units base)");
  const auto v = number(value);
  if (!v) throw ProfilerError("ncu reported no number for " + metric + " of kernel " + kernel + ": \"" + value + "\"");
  return *v;
}

NcuKernel identity(const std::vector<std::string>& header, const std::vector<std::string>& row) {
  NcuKernel k;
  const auto id = number(field(row, column(header, "ID")));
  if (!id) throw ProfilerError("ncu CSV: a row without a numeric ID: \"" + field(row, 0) + "\"");
  k.id = static_cast<long long>(*id);
  k.name = field(row, column(header, "Kernel Name"));
  k.grid_x = grid_x(field(row, column(header, "Grid Size")));
  return k;
}

// --page raw: a units row (its ID field empty), then a row per kernel. Without a units row the
// values are taken in ncu's base unit, bytes, which credit asks for (--print-units base).
std::vector<NcuKernel> read_raw(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  const std::size_t rc = column(header, kReadMetric), wc = column(header, kWriteMetric);
  if (rc == std::string::npos || wc == std::string::npos)
    throw ProfilerError(std::string("ncu CSV: no column ") + (rc == std::string::npos ? kReadMetric : kWriteMetric));
  const bool units = !rows.empty() && field(rows.front(), 0).empty();
  const std::string read_unit = units ? field(rows.front(), rc) : "byte";
  const std::string write_unit = units ? field(rows.front(), wc) : "byte";
  std::vector<NcuKernel> out;
  for (std::size_t i = units ? 1 : 0; i < rows.size(); ++i) {
    NcuKernel k = identity(header, rows[i]);
    k.read_bytes = bytes_of(field(rows[i], rc), read_unit, kReadMetric, k.name);
    k.write_bytes = bytes_of(field(rows[i], wc), write_unit, kWriteMetric, k.name);
    out.push_back(std::move(k));
  }
  return out;
}

// --page details: a row per (kernel, metric).
std::vector<NcuKernel> read_details(const std::vector<std::string>& header,
                                    const std::vector<std::vector<std::string>>& rows) {
  const std::size_t nc = column(header, "Metric Name"), uc = column(header, "Metric Unit"),
                    vc = column(header, "Metric Value");
  if (uc == std::string::npos || vc == std::string::npos) throw ProfilerError("ncu CSV: no Metric Unit or Metric Value");
  std::map<long long, NcuKernel> by_id;
  std::map<long long, int> seen;  // bit 1: read, bit 2: write
  for (const auto& row : rows) {
    NcuKernel k = identity(header, row);
    auto [it, fresh] = by_id.emplace(k.id, k);
    const std::string metric = field(row, nc);
    if (metric == kReadMetric) {
      it->second.read_bytes = bytes_of(field(row, vc), field(row, uc), metric, k.name);
      seen[k.id] |= 1;
    } else if (metric == kWriteMetric) {
      it->second.write_bytes = bytes_of(field(row, vc), field(row, uc), metric, k.name);
      seen[k.id] |= 2;
    }
  }
  std::vector<NcuKernel> out;
  for (auto& [id, k] : by_id) {
    if (seen[id] != 3)
      throw ProfilerError("ncu CSV: kernel " + k.name + " (ID " + std::to_string(id) + ") lacks " +
                          (seen[id] & 1 ? kWriteMetric : kReadMetric));
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace

void check_permission(std::string_view text) {
  if (text.find("ERR_NVGPUCTRPERM") != std::string_view::npos) throw ProfilerUnavailable(kPermissionHelp);
}

std::vector<NcuKernel> parse_ncu_log(std::string_view text) {
  check_permission(text);
  std::vector<std::string> errors;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  for (std::string_view line : lines_of(text)) {
    if (line.starts_with("==ERROR==")) errors.emplace_back(line);
    // The L2 is prepared by the child, not by ncu (--cache-control none): a second replay pass
    // would start with the first one's lines in the L2.
    if (replay_passes(line) > 1)
      errors.push_back("a kernel needed more than one replay pass (credit counts on one): " + std::string(line));
    if (!line.starts_with("\"")) continue;  // ==PROF==, ==WARNING==, anything the application printed
    std::vector<std::string> f = csv_fields(line);
    if (f.front() == "ID") {
      if (!header.empty() && f != header) throw ProfilerError("ncu CSV: two different headers in one log");
      header = std::move(f);
    } else if (!header.empty()) {
      rows.push_back(std::move(f));
    }
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : "; ") + e;
    throw ProfilerError("ncu reported: " + all);
  }
  if (header.empty()) return {};  // nothing profiled: the caller knows whether it expected kernels
  std::vector<NcuKernel> out = column(header, "Metric Name") != std::string::npos ? read_details(header, rows)
                                                                                : read_raw(header, rows);
  std::stable_sort(out.begin(), out.end(), [](const NcuKernel& a, const NcuKernel& b) { return a.id < b.id; });
  return out;
}

}  // namespace credit::traffic
