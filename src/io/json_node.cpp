#include "io/json_node.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/workload_registry.hpp"

namespace credit {

using nlohmann::json;

namespace io {

json number(double d) { return std::isfinite(d) ? json(d) : json(nullptr); }

json stat_map(const std::map<int, Stat>& m) {
  json a = json::array();
  for (const auto& [p, s] : m) {
    json e = s;
    e["p"] = p;
    a.push_back(std::move(e));
  }
  return a;
}

std::string fmt_double(double d) { return json(d).dump(); }

std::vector<std::string> read_strings(const Node& n) {
  std::vector<std::string> out;
  for (std::size_t i = 0, k = n.size(); i < k; ++i) out.push_back(n.item(i).str());
  return out;
}

DeviceInfo read_device(const Node& n) { return read_flat(n, io::kDeviceFields); }

Stat read_stat(const Node& n) { return read_flat(n, io::kStatFields); }

std::string read_workload(const Node& n) {
  const std::string name = n.str();
  try {
    find_workload(name);
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
  return name;
}

long long read_extent(const Node& n) {
  const auto v = n.integer<long long>();
  if (v <= 0) n.fail("expected a positive integer, got " + std::to_string(v));
  return v;
}

}  // namespace io

using io::write_flat;

void to_json(json& j, const DeviceInfo& d) { j = write_flat(d, io::kDeviceFields); }

void to_json(json& j, const Stat& s) { j = write_flat(s, io::kStatFields); }

}  // namespace credit
