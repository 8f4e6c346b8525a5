#include "io/json_records.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/workload_registry.hpp"
#include "io/atomic_write.hpp"
#include "io/json_fields.hpp"
#include "io/read_file.hpp"
#include "sweep/sweep_config.hpp"
#include "traffic/dram_traffic.hpp"

namespace credit {

using nlohmann::json;

ResultsFileError::ResultsFileError(std::string file, std::string field, const std::string& problem)
    : std::runtime_error(file + ": " + (field.empty() ? "" : field + ": ") + problem),
      file_(std::move(file)),
      field_(std::move(field)) {}

namespace {

constexpr const char* kDispositionNames[] = {"passed", "incorrect", "failed", "skipped",
                                             "not_supported"};
constexpr Disposition kDispositions[] = {Disposition::Passed, Disposition::Incorrect,
                                         Disposition::Failed, Disposition::Skipped,
                                         Disposition::NotSupported};
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

// JSON has no NaN or infinity; null says "no number" without turning it into a string.
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

// ---- reading ----

std::string fmt_double(double d) { return json(d).dump(); }

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

std::vector<std::string> read_strings(const Node& n) {
  std::vector<std::string> out;
  for (std::size_t i = 0, k = n.size(); i < k; ++i) out.push_back(n.item(i).str());
  return out;
}

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

DeviceInfo read_device(const Node& n) { return read_flat(n, io::kDeviceFields); }

Stat read_stat(const Node& n) { return read_flat(n, io::kStatFields); }

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

// A constant of a term this model lacks (records.hpp) is read only to check that its term is off: there the
// model it was fitted with is this one.
void check_removed_constant(const Node& v, const RemovedTimeModelField& r) {
  if (r.with || r.schedule || v.num() == r.off) return;
  v.fail(v.value().dump() + ": this build has no such term (removed while off: it reads only " + r.name + " = " +
         json(r.off).dump() + ")");
}

Calibration read_calibration(const Node& n) {
  Calibration c;
  c.device = read_device(n.field("device"));
  // The models divide by the SM count (0 made every prediction NaN) and size by these; no GPU has 0.
  for (const char* k : {"sm_count", "smem_per_block_optin", "smem_per_sm", "l2_bytes"}) {
    const Node v = n.field("device").field(k);
    if (v.integer<long long>() < 1) v.fail("expected a positive integer, got " + v.value().dump());
  }
  c.sm_clock_hz = n.field("sm_clock_hz").num();
  c.clock_source = n.field("clock_source").str();
  c.local_load_latency = read_stat(n.field("local_load_latency"));
  c.remote_load_latency = read_stat(n.field("remote_load_latency"));
  c.local_read = read_p_map<Stat>(n.field("local_read"), read_stat);
  c.local_store = read_p_map<Stat>(n.field("local_store"), read_stat);
  c.remote_read = read_p_map<Stat>(n.field("remote_read"), read_stat);
  c.remote_store = read_p_map<Stat>(n.field("remote_store"), read_stat);
  c.barrier = read_p_map<Stat>(n.field("barrier"), read_stat);
  c.max_active_clusters = read_p_map<int>(
      n.field("max_active_clusters"), [](const Node& e) { return e.field("clusters").integer<int>(); });
  // The time model's inputs: optional, so calibrations written before it still read.
  if (n.has("limits")) {
    c.limits = read_flat(n.field("limits"), io::kLimitFields);
  }
  if (n.has("kernels")) {
    const Node ks = n.field("kernels");
    for (std::size_t i = 0, k = ks.size(); i < k; ++i) {
      const Node e = ks.item(i);
      const KernelResources r = read_flat(e, io::kKernelFields);
      if (r.threads < 1 || r.regs < 0 || r.static_smem < 0) e.fail("threads must be >= 1, regs and static_smem >= 0");
      c.kernels.push_back(r);
    }
  }
  const auto read_slots = [](const Node& e) {
    std::vector<int> v;
    const Node s = e.field("by_ctas_per_sm");
    for (std::size_t i = 0, k = s.size(); i < k; ++i) v.push_back(s.item(i).integer<int>());
    return v;
  };
  if (n.has("cluster_slots")) c.cluster_slots = read_p_map<std::vector<int>>(n.field("cluster_slots"), read_slots);
  if (n.has("cluster_slots_run"))
    c.cluster_slots_run = read_p_map<std::vector<int>>(n.field("cluster_slots_run"), read_slots);
  if (n.has("copies")) {
    const Node cs = n.field("copies");
    for (std::size_t i = 0, k = cs.size(); i < k; ++i) {
      const Node e = cs.item(i);
      CopySample s{e.field("bytes").num(), e.field("ms").num()};
      if (!(s.bytes > 0) || !(s.ms > 0)) e.fail("bytes and ms must be positive numbers");
      c.copies.push_back(s);
    }
  }
  for (auto [key, into] : {std::pair{"elem_ns", &c.elem_ns}, std::pair{"elem_ns_lone", &c.elem_ns_lone}}) {
    if (!n.has(key)) continue;
    const Node e = n.field(key);
    if (!e.value().is_object()) e.expected("an object {workload: ns per element per SM}");
    for (const auto& [k, v] : e.value().items()) {
      const Node x(v, e.path() + "." + k, file_of(e));
      const double ns = x.num();
      if (!(ns >= 0)) x.fail("expected a non-negative number");
      (*into)[k] = ns;
    }
  }
  // "stream_probes": the same table as written by 4730a298107f (partial kernels only).
  if (const char* key = n.has("kernel_probes") ? "kernel_probes" : n.has("stream_probes") ? "stream_probes" : nullptr) {
    const Node sp = n.field(key);
    if (!sp.value().is_object()) sp.expected("an object {workload: {schedule: {m, n, ms}}}");
    for (const auto& [w, by_schedule] : sp.value().items()) {
      const Node ws(by_schedule, sp.path() + "." + w, file_of(sp));
      if (!by_schedule.is_object()) ws.expected("an object {schedule: {m, n, ms}}");
      for (const auto& [s, v] : by_schedule.items()) {
        const Node e(v, ws.path() + "." + s, file_of(ws));
        KernelProbe pr{e.field("m").integer<long long>(), e.field("n").integer<long long>(), e.field("ms").num(),
                       e.has("p") ? e.field("p").integer<int>() : 0};
        if (pr.m < 1 || pr.n < 1 || !(pr.ms > 0) || pr.p < 0)
          e.fail("m and n must be positive integers, ms a positive number and p, where present, not negative");
        c.kernel_probes[w][s] = pr;
      }
    }
  }
  if (n.has("time_model")) {
    const Node t = n.field("time_model");
    // A constant this build does not know would be dropped without a word, and the model then
    // predicts with another form than the one the file was fitted for: refuse it.
    if (!t.value().is_object()) t.expected("an object");
    for (const auto& [key, value] : t.value().items()) {
      if (key == "fitted_on" || find_time_model_field(key)) continue;
      const RemovedTimeModelField* removed = find_removed_time_model_field(key);
      if (!removed) t.fail("unknown constant '" + key + "': the file was written by another version of credit");
      check_removed_constant(t.field(removed->name), *removed);
    }
    TimeModelParams m;
    for (const auto& f : kTimeModelFields) {  // in table order: split_cta_gbps comes before the rates that default to it
      if (t.has(f.name) || f.absent == TimeModelField::Absent::required) m.*f.member = t.field(f.name).num();
      else m.*f.member = f.absent == TimeModelField::Absent::split_rate ? m.split_cta_gbps : f.value;
    }
    m.fitted_on = t.field("fitted_on").str();
    for (const auto& f : kTimeModelFields)
      if (!f.rate && !(m.*f.member >= 0)) t.fail("every constant must be a non-negative number");
    for (const auto& f : kTimeModelFields)
      if (f.rate && !(m.*f.member > 0)) t.fail("stream rates must be positive numbers");
    c.time_model = m;
  }
  return c;
}

CandidateTime read_candidate(const Node& n) { return read_flat(n, io::kCandidateFields); }

// A workload this build declares (a file naming another could not be re-checked or predicted).
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

// Measured bytes only: the per-element figures and the flag written beside them are derived.
DramTraffic read_dram(const Node& n) {
  DramTraffic d;
  d.read_bytes = n.field("read_bytes").num();
  d.write_bytes = n.field("write_bytes").num();
  d.kernels = n.field("kernels").integer<int>();
  for (const char* k : {"read_bytes", "write_bytes"})
    if (const double v = n.field(k).num(); !(std::isfinite(v) && v >= 0))
      n.field(k).fail("expected a non-negative byte count, got " + (std::isnan(v) ? std::string("null") : fmt_double(v)));
  if (d.kernels < 1) n.field("kernels").fail("expected at least one kernel");
  return d;
}

SweepPoint read_point(const Node& n) {
  SweepPoint p;
  p.workload = read_workload(n.field("workload"));
  p.m = read_extent(n.field("m"));
  p.n = read_extent(n.field("n"));
  read_fields(n, io::kPointFields, p);
  const Node d = n.field("disposition");
  try {
    p.disposition = parse_disposition(d.str());
  } catch (const std::invalid_argument& e) {
    d.fail(e.what());
  }
  p.time_ms = read_stat(n.field("time_ms"));
  // A passed point's time is a measurement: positive and finite. A control point's is the
  // difference of two medians (T_ctrl), which may be zero or slightly negative, but finite.
  if (p.disposition == Disposition::Passed) {
    const double t = p.time_ms.median;
    const bool ok = p.schedule == kControlSchedule ? std::isfinite(t) : std::isfinite(t) && t > 0;
    if (!ok)
      n.field("time_ms").field("median").fail(
          std::string("a passed point needs a ") + (p.schedule == kControlSchedule ? "finite" : "positive, finite") +
          " time, got " + (std::isnan(t) ? std::string("null (NaN)") : fmt_double(t)));
  }
  read_fields(n, io::kPointOptionalFields, p, true);
  if (n.has("gpu_time_ms")) p.gpu_time_ms = read_stat(n.field("gpu_time_ms"));
  if (n.has("dram")) p.dram = read_dram(n.field("dram"));
  return p;
}

PredictionRow read_row(const Node& n) { return read_flat(n, io::kPredictionRowFields); }

Prediction read_prediction(const Node& n) {
  Prediction p;
  p.workload = read_workload(n.field("workload"));
  p.model = n.field("model").str();
  p.m = read_extent(n.field("m"));
  p.n = read_extent(n.field("n"));
  p.baseline = n.field("baseline").str();
  p.t_b_ms = n.field("t_b_ms").num();
  const Node rows = n.field("rows");
  for (std::size_t i = 0, k = rows.size(); i < k; ++i) p.rows.push_back(read_row(rows.item(i)));
  if (n.has("best_p")) p.best_p = n.field("best_p").integer<int>();
  if (n.has("candidates")) {
    const Node cs = n.field("candidates");
    for (std::size_t i = 0, k = cs.size(); i < k; ++i) p.candidates.push_back(read_candidate(cs.item(i)));
  }
  if (n.has("pick_schedule")) p.pick_schedule = n.field("pick_schedule").str();
  if (n.has("pick_p")) p.pick_p = n.field("pick_p").integer<int>();
  if (n.has("pick_ms")) p.pick_ms = n.field("pick_ms").num();
  return p;
}

}  // namespace

const char* disposition_name(Disposition d) {
  for (std::size_t i = 0; i < std::size(kDispositions); ++i)
    if (kDispositions[i] == d) return kDispositionNames[i];
  return "unknown";  // only for a value cast from an out-of-range integer
}

Disposition parse_disposition(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kDispositions); ++i)
    if (name == kDispositionNames[i]) return kDispositions[i];
  throw std::invalid_argument("expected one of passed, incorrect, failed, skipped, not_supported, "
                              "got \"" + std::string(name) + "\"");
}

void to_json(json& j, Disposition d) { j = disposition_name(d); }

void to_json(json& j, const Meta& m) {
  j = json{{"argv", m.argv}, {"tool_version", m.tool_version}, {"git_sha", m.git_sha},
           {"utc_time", m.utc_time}, {"build_defines", m.build_defines}};
}

void to_json(json& j, const DeviceInfo& d) { j = write_flat(d, io::kDeviceFields); }

void to_json(json& j, const Stat& s) { j = write_flat(s, io::kStatFields); }

void to_json(json& j, const Calibration& c) {
  json clusters = json::array();
  for (const auto& [p, n] : c.max_active_clusters) clusters.push_back({{"p", p}, {"clusters", n}});
  j = json{{"device", c.device},
           {"sm_clock_hz", number(c.sm_clock_hz)},
           {"clock_source", c.clock_source},
           {"local_load_latency", c.local_load_latency},
           {"remote_load_latency", c.remote_load_latency},
           {"local_read", stat_map(c.local_read)},
           {"local_store", stat_map(c.local_store)},
           {"remote_read", stat_map(c.remote_read)},
           {"remote_store", stat_map(c.remote_store)},
           {"barrier", stat_map(c.barrier)},
           {"max_active_clusters", std::move(clusters)}};
  j["limits"] = write_flat(c.limits, io::kLimitFields);
  json kernels = json::array();
  for (const auto& k : c.kernels)
    kernels.push_back(write_flat(k, io::kKernelFields));
  j["kernels"] = std::move(kernels);
  const auto write_slots = [](const std::map<int, std::vector<int>>& m) {
    json slots = json::array();
    for (const auto& [p, v] : m) slots.push_back({{"p", p}, {"by_ctas_per_sm", v}});
    return slots;
  };
  j["cluster_slots"] = write_slots(c.cluster_slots);
  if (!c.cluster_slots_run.empty()) j["cluster_slots_run"] = write_slots(c.cluster_slots_run);
  json copies = json::array();
  for (const auto& s : c.copies) copies.push_back({{"bytes", number(s.bytes)}, {"ms", number(s.ms)}});
  j["copies"] = std::move(copies);
  json elem = json::object();
  for (const auto& [w, ns] : c.elem_ns) elem[w] = number(ns);
  j["elem_ns"] = std::move(elem);
  if (!c.elem_ns_lone.empty()) {
    json lone = json::object();
    for (const auto& [w, ns] : c.elem_ns_lone) lone[w] = number(ns);
    j["elem_ns_lone"] = std::move(lone);
  }
  json probes = json::object();
  for (const auto& [w, by_schedule] : c.kernel_probes)
    for (const auto& [s, pr] : by_schedule) {
      probes[w][s] = {{"m", pr.m}, {"n", pr.n}, {"ms", number(pr.ms)}};
      if (pr.p > 0) probes[w][s]["p"] = pr.p;
    }
  j["kernel_probes"] = std::move(probes);
  if (c.time_model) {
    const TimeModelParams& m = *c.time_model;
    json t = json::object();
    for (const auto& f : kTimeModelFields) t[f.name] = number(m.*f.member);
    t["fitted_on"] = m.fitted_on;
    j["time_model"] = std::move(t);
  } else {
    j["time_model"] = nullptr;
  }
}

void to_json(json& j, const SweepPoint& p) {
  j = write_flat(p, io::kPointFields);
  j.update(write_flat(p, io::kPointOptionalFields));
  j["workload"] = p.workload;
  j["m"] = p.m;
  j["n"] = p.n;
  j["disposition"] = p.disposition;
  j["time_ms"] = p.time_ms;
  j["gpu_time_ms"] = p.gpu_time_ms;
  if (!p.dram) {
    j["dram"] = nullptr;
    return;
  }
  const traffic::PerElement e = traffic::per_element(p);
  j["dram"] = json{{"read_bytes", number(p.dram->read_bytes)},
                   {"write_bytes", number(p.dram->write_bytes)},
                   {"kernels", p.dram->kernels},
                   {"bytes_per_element", number(e.total)},
                   {"model_bytes_per_element", number(e.model)},
                   {"compulsory_bytes_per_element", number(e.compulsory)},
                   {"reread_bytes_per_element", number(e.reread)},
                   {"over_model", e.over_model}};
}

void to_json(json& j, const CandidateTime& c) { j = write_flat(c, io::kCandidateFields); }

void to_json(json& j, const PredictionRow& r) { j = write_flat(r, io::kPredictionRowFields); }

void to_json(json& j, const Prediction& p) {
  j = json{{"workload", p.workload},
           {"model", p.model},
           {"m", p.m},
           {"n", p.n},
           {"baseline", p.baseline},
           {"t_b_ms", number(p.t_b_ms)},
           {"rows", p.rows},
           {"best_p", p.best_p ? json(*p.best_p) : json(nullptr)}};
  if (!p.candidates.empty() || !p.pick_schedule.empty()) {
    j["candidates"] = p.candidates;
    j["pick_schedule"] = p.pick_schedule;
    j["pick_p"] = p.pick_p;
    j["pick_ms"] = number(p.pick_ms);
  }
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
  const Node root(j, "", source);
  if (!j.is_object()) root.expected("an object at the top level");
  // Version first: a file of another schema may differ anywhere, so say that, not a field.
  const Node version = root.field("schema_version");
  if (!version.value().is_number_integer() || version.value().get<std::int64_t>() != kSchemaVersion)
    version.fail("expected " + std::to_string(kSchemaVersion) + ", got " + version.value().dump());

  ResultsFile r;
  r.schema_version = kSchemaVersion;
  const Node kind = root.field("kind");
  r.kind = kind.str();
  if (!known_kind(r.kind))
    kind.fail("expected one of calibration, prediction, sweep, ladder, got \"" + r.kind + "\"");
  r.meta = read_meta(root.field("meta"));
  r.device = read_device(root.field("device"));
  if (root.has("calibration")) r.calibration = read_calibration(root.field("calibration"));
  const Node preds = root.field("predictions");
  for (std::size_t i = 0, k = preds.size(); i < k; ++i)
    r.predictions.push_back(read_prediction(preds.item(i)));
  const Node points = root.field("points");
  for (std::size_t i = 0, k = points.size(); i < k; ++i) r.points.push_back(read_point(points.item(i)));
  r.copy_gbps = root.field("copy_gbps").num();
  if (root.has("draw")) r.draw = read_draw(root.field("draw"));  // optional: validate's sweeps have it
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
