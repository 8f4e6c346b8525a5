#include "io/json_records.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "core/element_type.hpp"
#include "core/shape_draw.hpp"
#include "io/atomic_write.hpp"
#include "io/json_calibration.hpp"
#include "io/json_node.hpp"
#include "io/json_prediction.hpp"
#include "io/json_sweep_point.hpp"
#include "io/read_file.hpp"
#include "sweep/sweep_config.hpp"

namespace credit {

using nlohmann::json;

namespace {

constexpr const char* kKinds[] = {"calibration", "prediction", "sweep", "ladder"};

bool known_kind(const std::string& kind) {
  for (const char* k : kKinds)
    if (kind == k) return true;
  return false;
}

// The peers' schedules, as scripts/torch_baselines.py writes them (its IMPLS), and its tool_version.
constexpr const char* kPeerSchedules[] = {"torch_eager", "torch_compile", "triton"};
constexpr const char* kBaselinesTool = "torch_baselines.py";

bool is_peer_schedule(std::string_view s) {
  for (const char* k : kPeerSchedules)
    if (s == k) return true;
  return false;
}

// A sweep of the peers only: written by the baselines script, or every point a peer's.
template <class Schedules>
bool baselines_only(std::string_view tool_version, std::size_t points, const Schedules& each_schedule) {
  if (tool_version == kBaselinesTool) return true;
  if (points == 0) return false;
  bool all = true;
  each_schedule([&](std::string_view s) { all = all && is_peer_schedule(s); });
  return all;
}

const std::string kResultsFileText = "a results JSON file";

// The kinds in words: "a sweep results file or a ladder results file".
std::string describe_kinds(std::initializer_list<std::string_view> kinds) {
  std::string out;
  std::size_t i = 0;
  for (std::string_view k : kinds) out += (i++ == 0 ? "" : i == kinds.size() ? " or " : ", ") + describe_kind(k);
  return out.empty() ? kResultsFileText : out;
}

bool kind_in(const std::string& kind, std::initializer_list<std::string_view> kinds) {
  for (std::string_view k : kinds)
    if (kind == k) return true;
  return false;
}

// The kind of a parsed document that declares a known one (results_kind before the fields are read);
// "" when it declares none or an unknown one (results_from_json then names the field).
std::string declared_kind(const json& j) {
  const auto k = j.find("kind");
  if (k == j.end() || !k->is_string() || !known_kind(k->get<std::string>())) return "";
  std::string kind = k->get<std::string>();
  if (kind != "sweep") return kind;
  std::string tool;
  if (const auto m = j.find("meta"); m != j.end() && m->is_object())
    if (const auto t = m->find("tool_version"); t != m->end() && t->is_string()) tool = t->get<std::string>();
  const auto pts = j.find("points");
  const bool array = pts != j.end() && pts->is_array();
  const bool peers = baselines_only(tool, array ? pts->size() : 0, [&](auto visit) {
    for (const auto& p : *pts) {
      const auto s = p.is_object() ? p.find("schedule") : p.end();
      visit(p.is_object() && s != p.end() && s->is_string() ? std::string_view(s->get_ref<const std::string&>())
                                                            : std::string_view());
    }
  });
  return peers ? "baselines" : kind;
}

// What a parsed document is when it is no results file ("" when it may be one): a sweep config, other
// JSON. A file that has schema_version or kind is read as a results file, which names its bad field.
std::string not_a_results_file(const json& j) {
  if (!j.is_object()) return std::string("is JSON but not a results file (its top level is ") + j.type_name() + ")";
  if (j.contains("schema_version") || j.contains("kind")) return "";
  bool config = !j.empty();
  for (const auto& [key, value] : j.items())
    config = config && std::find(kSweepConfigKeys.begin(), kSweepConfigKeys.end(), key) != kSweepConfigKeys.end();
  if (config) return "is a sweep config (for credit run-sweep --config)";
  return "is JSON but not a results file (no schema_version or kind)";
}

}  // namespace

namespace io {
namespace {

ShapeDraw read_draw(const Node& n) {
  ShapeDraw d;
  d.seed = n.field("seed").integer<std::uint64_t>();
  d.count = n.field("count").integer<int>();
  d.m_min = n.field("m_min").integer<long long>();
  d.m_max = n.field("m_max").integer<long long>();
  d.n_min = n.field("n_min").integer<long long>();
  d.n_max = n.field("n_max").integer<long long>();
  const Node dtype = n.field("dtype");
  try {
    d.element = parse_element_type(dtype.str());
  } catch (const std::invalid_argument& e) {
    dtype.fail(e.what());
  }
  d.workloads = read_strings(n.field("workloads"));
  d.max_bytes = n.field("max_bytes").num();
  try {
    check_shape_draw(d);
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
  }
  return d;
}

Meta read_meta(const Node& n) {
  Meta m;
  m.argv = read_strings(n.field("argv"));
  m.tool_version = n.field("tool_version").str();
  m.git_sha = n.field("git_sha").str();
  m.utc_time = n.field("utc_time").str();
  m.build_defines_recorded = n.has("build_defines");  // optional: files written before 2026-12-05 lack it
  if (m.build_defines_recorded) m.build_defines = n.field("build_defines").str();
  return m;
}

}  // namespace
}  // namespace io

using io::number;

void to_json(json& j, const Meta& m) {
  j = json{{"argv", m.argv}, {"tool_version", m.tool_version}, {"git_sha", m.git_sha},
           {"utc_time", m.utc_time}, {"build_defines", m.build_defines}};
}

void to_json(json& j, const ResultsFile& r) {
  j = json{{"schema_version", r.schema_version},
           {"kind", r.kind},
           {"meta", r.meta},
           {"device", r.device},
           {"calibration", r.calibration ? json(*r.calibration) : json(nullptr)},
           {"predictions", r.predictions},
           {"points", r.points},
           {"copy_gbps", number(r.copy_gbps)}};
  if (r.draw)
    j["draw"] = json{{"seed", r.draw->seed},           {"count", r.draw->count},
                     {"m_min", r.draw->m_min},         {"m_max", r.draw->m_max},
                     {"n_min", r.draw->n_min},         {"n_max", r.draw->n_max},
                     {"dtype", element_type_name(r.draw->element)},
                     {"workloads", r.draw->workloads}, {"max_bytes", number(r.draw->max_bytes)}};
}

json to_json_value(const ResultsFile& results) { return json(results); }

ResultsFile results_from_json(const json& j, const std::string& source) {
  const io::Node root(j, "", source);
  if (!j.is_object()) root.expected("an object at the top level");
  // Version first: a file of another schema may differ anywhere, so say that, not a field.
  const io::Node version = root.field("schema_version");
  if (!version.value().is_number_integer() || version.value().get<std::int64_t>() != kSchemaVersion)
    version.fail("expected " + std::to_string(kSchemaVersion) + ", got " + version.value().dump());

  ResultsFile r;
  r.schema_version = kSchemaVersion;
  const io::Node kind = root.field("kind");
  r.kind = kind.str();
  if (!known_kind(r.kind))
    kind.fail("expected one of calibration, prediction, sweep, ladder, got \"" + r.kind + "\"");
  r.meta = io::read_meta(root.field("meta"));
  r.device = io::read_device(root.field("device"));
  if (root.has("calibration")) r.calibration = io::read_calibration(root.field("calibration"));
  const io::Node preds = root.field("predictions");
  for (std::size_t i = 0, k = preds.size(); i < k; ++i)
    r.predictions.push_back(io::read_prediction(preds.item(i)));
  const io::Node points = root.field("points");
  for (std::size_t i = 0, k = points.size(); i < k; ++i) r.points.push_back(io::read_point(points.item(i)));
  r.copy_gbps = root.field("copy_gbps").num();
  if (root.has("draw")) r.draw = io::read_draw(root.field("draw"));  // optional: validate's sweeps have it
  return r;
}

void write_results(const std::filesystem::path& path, const ResultsFile& results) {
  if (!known_kind(results.kind))
    throw std::invalid_argument("write_results " + path.string() + ": unknown kind \"" +
                                results.kind + "\" (expected calibration, prediction or sweep)");
  // Replace invalid UTF-8 (an odd argv byte) rather than throw after a long run.
  const std::string text =
      to_json_value(results).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  write_file_atomically(path, text);
}

namespace {

// Every reader's path: read (gzipped or not), parse, say what a file that is no results file is, check
// the kind when `kinds` is not empty, then every field.
ResultsFile read_checked(const std::filesystem::path& path, std::initializer_list<std::string_view> kinds,
                         std::string_view expected_text) {
  const std::string file = path.string();
  const std::string expected = !expected_text.empty() ? std::string(expected_text) : describe_kinds(kinds);
  const FileText f = read_regular_file(path, expected);
  if (!f.error.empty()) throw ResultsFileError(file, "", f.error);
  json j;
  try {
    j = json::parse(f.text);
  } catch (const json::parse_error& e) {
    std::string why = e.what();  // "[json.exception.parse_error.101] parse error at line 1, ..."
    if (const auto close = why.find("] "); why.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      why = why.substr(close + 2);
    throw ResultsFileError(file, "", "not valid JSON (" + why + "), expected " + expected);
  }
  if (const std::string what = not_a_results_file(j); !what.empty())
    throw ResultsFileError(file, "", what + ", expected " + expected);
  if (kinds.size() > 0)
    if (const std::string kind = declared_kind(j); !kind.empty() && !kind_in(kind, kinds))
      throw ResultsFileError(file, "", "is " + describe_kind(kind) + ", expected " + expected);
  ResultsFile r = results_from_json(j, file);
  if (kinds.size() > 0) check_results_kind(r, file, kinds, expected);
  return r;
}

}  // namespace

ResultsFile read_results(const std::filesystem::path& path) { return read_checked(path, {}, kResultsFileText); }

ResultsFile read_results(const std::filesystem::path& path, std::initializer_list<std::string_view> kinds,
                         std::string_view expected) {
  return read_checked(path, kinds, expected);
}

std::string results_kind(const ResultsFile& r) {
  if (r.kind != "sweep") return r.kind;
  const bool peers = baselines_only(r.meta.tool_version, r.points.size(), [&](auto visit) {
    for (const auto& p : r.points) visit(p.schedule);
  });
  return peers ? "baselines" : r.kind;
}

std::string describe_kind(std::string_view kind) {
  if (kind == "calibration") return "a calibration file";
  if (kind == "prediction") return "a prediction file";
  if (kind == "sweep") return "a sweep results file";
  if (kind == "ladder") return "a ladder results file";
  if (kind == "baselines") return "a torch-baselines file";
  return "a results file of kind \"" + std::string(kind) + "\"";
}

std::string describe_results_kind(const ResultsFile& r) { return describe_kind(results_kind(r)); }

void check_results_kind(const ResultsFile& r, const std::string& file, std::initializer_list<std::string_view> kinds,
                        std::string_view expected) {
  const std::string kind = results_kind(r);
  if (kind_in(kind, kinds)) return;
  throw ResultsFileError(file, "", "is " + describe_kind(kind) + ", expected " +
                                       (expected.empty() ? describe_kinds(kinds) : std::string(expected)));
}

}  // namespace credit