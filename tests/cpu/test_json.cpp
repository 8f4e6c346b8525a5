// Results files: exact round trips, numbers kept as numbers, atomic replacement, and errors that
// name the file and the field.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "catch.hpp"
#include "io/atomic_write.hpp"
#include "io/json_fields.hpp"
#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"
#include "io/meta.hpp"
#include "support/sweep_point.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace credit;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("credit_test_json") {}
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// Values chosen to catch lossy printing: thirds, tiny, huge, > 2^53 integers.
Stat stat(double base) { return Stat{base / 3.0, base * 0.1, base * 1e-300 + base, 101}; }

DeviceInfo device() {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-12345678-9abc-def0-1234-56789abcdef0";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.mem_clock_khz = 2619000;
  d.mem_bus_width_bits = 6144;
  d.smem_per_block_optin = 232448;
  d.smem_per_sm = 233472;
  d.l2_bytes = 52428800;
  d.global_mem_bytes = 150754820096LL;
  d.driver_version = 12040;
  d.runtime_version = 12030;
  d.cluster_launch = true;
  return d;
}

Meta meta() {
  return Meta{{"credit", "run-sweep", "--shape", "4096x65536", "caf\xc3\xa9 \"quoted\""},
              "0.1.0", "abcdef123456", "2026-11-29T11:02:03Z", "CREDIT_CLUSTER_POLICY=2 CREDIT_PARTIAL_LOADS=8"};
}

Calibration calibration() {
  Calibration c;
  c.device = device();
  c.sm_clock_hz = 1.98e9;
  c.clock_source = "cudaDevAttrClockRate";
  c.local_load_latency = stat(31.0);
  c.remote_load_latency = stat(203.0);
  for (int p : {2, 4, 8, 16}) {
    c.local_read[p] = stat(100.0 + p);
    c.local_store[p] = stat(90.0 + p);
    c.remote_read[p] = stat(30.0 + p);
    c.remote_store[p] = stat(20.0 + p);
    c.barrier[p] = stat(400.0 * p);
    c.max_active_clusters[p] = 132 / p;
  }
  c.limits = {65536, 2048, 32, 1024};
  c.kernels = {{"layernorm", "staged", 256, 40, 0}, {"rms_softmax", "registers/256x4", 256, 48, 64}};
  c.elem_ns = {{"layernorm", 0.17}, {"lars", 0.42}};
  c.elem_ns_lone = {{"lars", 0.125}};
  return c;
}

SweepPoint point(int i, Disposition d) {
  SweepPoint p;
  p.workload = "layernorm";
  p.m = 4096;
  p.n = (1LL << 40) + 3 + i;  // above 2^32: must stay a 64-bit integer
  p.schedule = i % 2 ? "cluster" : "staged";
  p.p = 1 << i;
  p.disposition = d;
  p.reason = d == Disposition::Passed ? "" : "reason " + std::to_string(i);
  p.time_ms = stat(0.7 + i);
  p.compulsory_bytes = 2.0 * 4096 * 65536 * 4;
  p.traffic_bytes = 3.0 * 4096 * 65536 * 4 + 0.5;
  p.gbps = 4321.0 / 7.0;
  p.pct_of_copy = 87.654321012345678;
  p.max_rel_l2_error = 1.2345e-7 * (i + 1);
  p.resident_rows = 264 + i;
  p.repeat_ms = 0.7 + i / 7.0;
  if (i % 2) {  // ladder fields
    p.submission = "graph";
    p.variant = "grid+reload_input";
    p.gpu_time_ms = stat(0.25 + i);
  }
  return p;
}

Prediction prediction(bool with_best) {
  Prediction p;
  p.workload = "rms_softmax";
  p.model = "refined";
  p.m = 8;
  p.n = 262144;
  p.baseline = "global_reread";
  p.t_b_ms = 0.123456789;
  for (int i = 0; i < 3; ++i) {
    PredictionRow r;
    r.p = 2 << i;
    r.legal = i != 2;
    r.reason = r.legal ? "" : "smem over S_max";
    r.waves = 1.0 / (i + 3);
    r.t_save_ms = 0.01 * (i + 1);
    r.t_ctrl_ms = 0.002 / 3;
    r.t_replay_ms = 0.1 / 7;
    r.t_dsm_ms = 1e-5;
    r.t_deposit_ms = 2e-6;
    r.dt_ms = -0.0123 + i * 0.01;
    r.profitable = i == 0;
    p.rows.push_back(r);
  }
  if (with_best) p.best_p = 2;
  if (with_best) {  // the time model's candidates
    p.candidates.push_back({"cluster", 16, true, "", 0.0123456789, 6, 42, 13.0 / 3, 308.8e6});
    p.candidates.push_back({"partial", 16, false, "partial: the slice fits whole at 2 CTAs per SM", 0, 0, 0, 0, 0});
  }
  return p;
}

ResultsFile results(const std::string& kind) {
  ResultsFile r;
  r.kind = kind;
  r.meta = meta();
  r.device = device();
  if (kind == "calibration") r.calibration = calibration();
  if (kind == "prediction") {
    r.calibration = calibration();
    r.predictions = {prediction(true), prediction(false)};
  }
  if (kind == "sweep" || kind == "ladder") {
    const Disposition all[] = {Disposition::Passed, Disposition::Incorrect, Disposition::Failed,
                               Disposition::Skipped, Disposition::NotSupported};
    for (int i = 0; i < 5; ++i) r.points.push_back(point(i, all[i]));
    r.copy_gbps = 4123.456789;
  }
  return r;
}

// ---- field-by-field comparison, numbers exactly ----

// Every field of a flat table (io/json_fields.hpp): the same table the reader and writer walk.
template <class T, std::size_t N>
void check_eq_flat(const T& a, const T& b, const io::FlatField<T> (&fields)[N]) {
  for (const auto& f : fields) {
    INFO("field " << f.name);
    std::visit([&](auto m) { CHECK(a.*m == b.*m); }, f.member);
  }
}

void check_eq(const Stat& a, const Stat& b) { check_eq_flat(a, b, io::kStatFields); }

void check_eq(const std::map<int, Stat>& a, const std::map<int, Stat>& b) {
  REQUIRE(a.size() == b.size());
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    CHECK(ia->first == ib->first);
    check_eq(ia->second, ib->second);
  }
}

void check_eq(const DeviceInfo& a, const DeviceInfo& b) { check_eq_flat(a, b, io::kDeviceFields); }

void check_eq(const Calibration& a, const Calibration& b) {
  check_eq(a.device, b.device);
  CHECK(a.sm_clock_hz == b.sm_clock_hz);
  CHECK(a.clock_source == b.clock_source);
  check_eq(a.local_load_latency, b.local_load_latency);
  check_eq(a.remote_load_latency, b.remote_load_latency);
  check_eq(a.local_read, b.local_read);
  check_eq(a.local_store, b.local_store);
  check_eq(a.remote_read, b.remote_read);
  check_eq(a.remote_store, b.remote_store);
  check_eq(a.barrier, b.barrier);
  CHECK(a.max_active_clusters == b.max_active_clusters);
  check_eq_flat(a.limits, b.limits, io::kLimitFields);
  REQUIRE(a.kernels.size() == b.kernels.size());
  for (std::size_t i = 0; i < a.kernels.size(); ++i) check_eq_flat(a.kernels[i], b.kernels[i], io::kKernelFields);
  CHECK(a.elem_ns == b.elem_ns);
  CHECK(a.elem_ns_lone == b.elem_ns_lone);
}

void check_eq(const SweepPoint& a, const SweepPoint& b) {
  CHECK(a.workload == b.workload);
  CHECK(a.m == b.m);
  CHECK(a.n == b.n);
  CHECK(a.disposition == b.disposition);
  check_eq(a.time_ms, b.time_ms);
  check_eq(a.gpu_time_ms, b.gpu_time_ms);
  check_eq_flat(a, b, io::kPointFields);
  check_eq_flat(a, b, io::kPointOptionalFields);
}

void check_eq(const PredictionRow& a, const PredictionRow& b) { check_eq_flat(a, b, io::kPredictionRowFields); }

void check_eq(const Prediction& a, const Prediction& b) {
  CHECK(a.workload == b.workload);
  CHECK(a.model == b.model);
  CHECK(a.m == b.m);
  CHECK(a.n == b.n);
  CHECK(a.baseline == b.baseline);
  CHECK(a.t_b_ms == b.t_b_ms);
  REQUIRE(a.rows.size() == b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) check_eq(a.rows[i], b.rows[i]);
  CHECK(a.best_p == b.best_p);
  REQUIRE(a.candidates.size() == b.candidates.size());
  for (std::size_t i = 0; i < a.candidates.size(); ++i)
    check_eq_flat(a.candidates[i], b.candidates[i], io::kCandidateFields);
}

void check_eq(const ResultsFile& a, const ResultsFile& b) {
  CHECK(a.schema_version == b.schema_version);
  CHECK(a.kind == b.kind);
  CHECK(a.meta.argv == b.meta.argv);
  CHECK(a.meta.tool_version == b.meta.tool_version);
  CHECK(a.meta.git_sha == b.meta.git_sha);
  CHECK(a.meta.utc_time == b.meta.utc_time);
  CHECK(a.meta.build_defines == b.meta.build_defines);
  CHECK(b.meta.build_defines_recorded);
  check_eq(a.device, b.device);
  REQUIRE(a.calibration.has_value() == b.calibration.has_value());
  if (a.calibration) check_eq(*a.calibration, *b.calibration);
  REQUIRE(a.predictions.size() == b.predictions.size());
  for (std::size_t i = 0; i < a.predictions.size(); ++i) check_eq(a.predictions[i], b.predictions[i]);
  REQUIRE(a.points.size() == b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) check_eq(a.points[i], b.points[i]);
  CHECK(a.copy_gbps == b.copy_gbps);
}

// Every string-valued key a results file may have; any other string is a number gone wrong.
void collect_string_keys(const json& j, const std::string& key, std::set<std::string>& out) {
  if (j.is_string()) out.insert(key);
  if (j.is_object())
    for (const auto& [k, v] : j.items()) collect_string_keys(v, k, out);
  if (j.is_array())
    for (const auto& v : j) collect_string_keys(v, key, out);
}

// Writes a valid sweep file, lets `edit` break it, and returns the ResultsFileError of reading.
template <class Edit>
ResultsFileError read_error_after(const fs::path& file, Edit edit) {
  json j = to_json_value(results("sweep"));
  edit(j);
  spit(file, j.dump(2));
  try {
    read_results(file);
  } catch (const ResultsFileError& e) {
    return e;
  }
  FAIL("read_results accepted a broken file");
  return ResultsFileError("", "", "");  // not reached: FAIL throws
}

void check_names(const ResultsFileError& e, const fs::path& file, const std::string& field,
                 const std::string& problem) {
  const std::string msg = e.what();
  INFO("message: " << msg);
  CHECK(e.file() == file.string());
  CHECK(e.field() == field);
  CHECK(msg.rfind(file.string() + ": " + field + ": ", 0) == 0);
  CHECK(msg.find(problem) != std::string::npos);
}

}  // namespace

TEST_CASE("each kind of results file round-trips exactly", "[json]") {
  TempDir dir;
  for (const char* kind : {"calibration", "prediction", "sweep", "ladder"}) {
    INFO("kind " << kind);
    const ResultsFile original = results(kind);
    const fs::path file = dir.path / (std::string(kind) + ".json");
    write_results(file, original);
    check_eq(read_results(file), original);
  }
}

TEST_CASE("points written before the ladder fields read with their defaults", "[json]") {
  TempDir dir;
  json j = to_json_value(results("sweep"));
  for (auto& p : j["points"]) {
    for (const auto& f : io::kPointOptionalFields) p.erase(f.name);  // absent or null: the default
    p["gpu_time_ms"] = nullptr;
  }
  const fs::path file = dir.path / "old.json";
  spit(file, j.dump(2));
  const ResultsFile r = read_results(file);
  REQUIRE(r.points.size() == 5);
  for (const auto& p : r.points) {
    CHECK(p.submission == "direct");
    CHECK(p.variant.empty());
    CHECK(p.gpu_time_ms.runs == 0);
    CHECK(p.resident_rows == 0);
    CHECK(p.repeat_ms == 0);
  }
}

TEST_CASE("empty optional parts round-trip", "[json]") {
  TempDir dir;
  ResultsFile r;
  r.kind = "sweep";
  const fs::path file = dir.path / "empty.json";
  write_results(file, r);
  const json j = json::parse(slurp(file));
  CHECK(j.at("calibration").is_null());
  CHECK(j.at("points").is_array());
  CHECK(j.at("predictions").empty());
  const ResultsFile back = read_results(file);
  CHECK(!back.calibration.has_value());
  CHECK(back.points.empty());
  CHECK(back.predictions.empty());
  check_eq(back, r);

  // Absent optionals read as empty too (writers in scripts/ may leave them out).
  json k = to_json_value(results("prediction"));
  k.erase("calibration");
  k["predictions"][0].erase("best_p");
  k["meta"].erase("build_defines");  // a file written before the builds' definitions were recorded
  const ResultsFile lean = results_from_json(k, "lean.json");
  CHECK(!lean.calibration.has_value());
  CHECK(!lean.predictions[0].best_p.has_value());
  CHECK(lean.meta.build_defines.empty());
  CHECK(!lean.meta.build_defines_recorded);
}

TEST_CASE("numbers are written as JSON numbers, never strings", "[json]") {
  TempDir dir;
  ResultsFile r = results("sweep");
  r.calibration = calibration();
  r.predictions = {prediction(true)};
  const fs::path file = dir.path / "numbers.json";
  write_results(file, r);
  const json j = json::parse(slurp(file));

  std::set<std::string> string_keys;
  collect_string_keys(j, "", string_keys);
  const std::set<std::string> allowed = {"kind",     "argv",       "tool_version", "git_sha", "build_defines",
                                         "utc_time", "name",       "uuid",         "clock_source",
                                         "workload", "schedule",   "disposition",  "reason",
                                         "model",    "baseline",   "submission",   "variant",
                                         "pick_schedule"};
  for (const auto& k : string_keys) {
    INFO("string-valued key " << k);
    CHECK(allowed.count(k) == 1);
  }
  CHECK(j["schema_version"].is_number_integer());
  CHECK(j["points"][0]["m"].is_number_integer());
  CHECK(j["points"][0]["n"].get<long long>() == (1LL << 40) + 3);
  CHECK(j["points"][0]["time_ms"]["median"].is_number_float());
  CHECK(j["device"]["global_mem_bytes"].is_number_integer());
  CHECK(j["predictions"][0]["best_p"].is_number_integer());
  CHECK(j["points"][1]["disposition"] == "incorrect");
}

TEST_CASE("maps keyed by P are arrays sorted by P with the key inlined", "[json]") {
  const json j = to_json_value(results("calibration"));
  const json& reads = j["calibration"]["local_read"];
  REQUIRE(reads.is_array());
  REQUIRE(reads.size() == 4);
  CHECK(reads[0]["p"] == 2);
  CHECK(reads[3]["p"] == 16);
  CHECK(reads[3]["runs"] == 101);
  CHECK(reads[3]["median"].get<double>() == 116.0 / 3.0);
  const json& clusters = j["calibration"]["max_active_clusters"];
  CHECK(clusters[1] == json{{"p", 4}, {"clusters", 33}});
}

TEST_CASE("non-finite doubles are written as null and read back as NaN", "[json]") {
  TempDir dir;
  ResultsFile r = results("sweep");
  r.points[0].max_rel_l2_error = std::numeric_limits<double>::quiet_NaN();
  r.points[0].pct_of_copy = std::numeric_limits<double>::infinity();
  const fs::path file = dir.path / "nan.json";
  write_results(file, r);
  const json j = json::parse(slurp(file));
  CHECK(j["points"][0]["max_rel_l2_error"].is_null());
  CHECK(j["points"][0]["pct_of_copy"].is_null());
  const ResultsFile back = read_results(file);
  CHECK(std::isnan(back.points[0].max_rel_l2_error));
  CHECK(std::isnan(back.points[0].pct_of_copy));
}

TEST_CASE("disposition names", "[json]") {
  const Disposition all[] = {Disposition::Passed, Disposition::Incorrect, Disposition::Failed,
                             Disposition::Skipped, Disposition::NotSupported};
  const char* names[] = {"passed", "incorrect", "failed", "skipped", "not_supported"};
  for (int i = 0; i < 5; ++i) {
    CHECK(std::string(disposition_name(all[i])) == names[i]);
    CHECK(parse_disposition(names[i]) == all[i]);
    CHECK(json(all[i]) == names[i]);
  }
  CHECK_THROWS_AS(parse_disposition("Passed"), std::invalid_argument);
  CHECK_THROWS_AS(parse_disposition(""), std::invalid_argument);
}

TEST_CASE("write_file_atomically replaces content and leaves no temporary", "[json]") {
  TempDir dir;
  const fs::path file = dir.path / "out.txt";
  write_file_atomically(file, std::string(100000, 'a'));
  CHECK(slurp(file) == std::string(100000, 'a'));
  write_file_atomically(file, "short");
  CHECK(slurp(file) == "short");
  write_file_atomically(file, "");
  CHECK(slurp(file).empty());
  CHECK(names_in(dir.path) == std::set<std::string>{"out.txt"});

  // Missing parent directories are created.
  const fs::path nested = dir.path / "a" / "b" / "r.json";
  write_results(nested, results("sweep"));
  CHECK(names_in(nested.parent_path()) == std::set<std::string>{"r.json"});
  CHECK(read_results(nested).points.size() == 5);
}

TEST_CASE("write_file_atomically reports failures with the path", "[json]") {
  TempDir dir;
  spit(dir.path / "plain", "x");
  const fs::path bad = dir.path / "plain" / "r.json";  // parent is a regular file
  std::string msg;
  try {
    write_file_atomically(bad, "data");
  } catch (const std::runtime_error& e) {
    msg = e.what();
  }
  INFO("message: " << msg);
  CHECK(msg.find(bad.string()) != std::string::npos);
  CHECK(msg.find("creating parent directories: ") != std::string::npos);
  // A directory in the way of the target: rename fails, temporary is cleaned up.
  fs::create_directories(dir.path / "adir" / "inner");
  CHECK_THROWS_AS(write_file_atomically(dir.path / "adir", "data"), std::runtime_error);
  CHECK(names_in(dir.path) == std::set<std::string>{"plain", "adir"});
}

TEST_CASE("write_results refuses an unknown kind", "[json]") {
  TempDir dir;
  ResultsFile r;
  r.kind = "sweeps";
  CHECK_THROWS_AS(write_results(dir.path / "r.json", r), std::invalid_argument);
  CHECK(names_in(dir.path).empty());
}

TEST_CASE("unreadable files name the file", "[json]") {
  TempDir dir;
  const fs::path corrupt = dir.path / "corrupt.json";
  spit(corrupt, "{ this is not json");
  const fs::path truncated = dir.path / "truncated.json";
  const std::string full = to_json_value(results("sweep")).dump(2);
  spit(truncated, full.substr(0, full.size() / 2));
  const fs::path empty = dir.path / "empty.json";
  spit(empty, "");
  for (const fs::path& f : {corrupt, truncated, empty}) {
    std::string msg;
    try {
      read_results(f);
    } catch (const ResultsFileError& e) {
      msg = e.what();
      CHECK(e.file() == f.string());
      CHECK(e.field().empty());
    }
    INFO("message: " << msg);
    CHECK(msg.rfind(f.string() + ": not valid JSON", 0) == 0);
    CHECK(msg.find("line") != std::string::npos);  // the parser's position
  }
  const fs::path missing = dir.path / "missing.json";
  std::string msg;
  try {
    read_results(missing);
  } catch (const ResultsFileError& e) {
    msg = e.what();
  }
  CHECK(msg == missing.string() + ": cannot open: No such file or directory");
}

TEST_CASE("bad schema_version is reported before anything else", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  check_names(read_error_after(f, [](json& j) { j["schema_version"] = 2; j.erase("points"); }), f,
              "schema_version", "expected 1, got 2");
  check_names(read_error_after(f, [](json& j) { j["schema_version"] = "1"; }), f,
              "schema_version", "expected 1, got \"1\"");
  check_names(read_error_after(f, [](json& j) { j.erase("schema_version"); }), f,
              "schema_version", "missing field");
}

TEST_CASE("missing fields and wrong types name the field path", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  check_names(read_error_after(f, [](json& j) { j["points"][3]["time_ms"]["median"] = "fast"; }),
              f, "points[3].time_ms.median", "expected a number, got string");
  check_names(read_error_after(f, [](json& j) { j["points"][0].erase("gbps"); }), f,
              "points[0].gbps", "missing field");
  check_names(read_error_after(f, [](json& j) { j["device"].erase("sm_count"); }), f,
              "device.sm_count", "missing field");
  check_names(read_error_after(f, [](json& j) { j["points"][2]["m"] = 4096.5; }), f,
              "points[2].m", "expected an integer, got number 4096.5");
  check_names(read_error_after(f, [](json& j) { j["points"][1]["p"] = 10000000000LL; }), f,
              "points[1].p", "out of range");
  check_names(read_error_after(f, [](json& j) { j["points"][4]["disposition"] = "ok"; }), f,
              "points[4].disposition", "got \"ok\"");
  check_names(read_error_after(f, [](json& j) { j["points"] = json::object(); }), f, "points",
              "expected an array, got object");
  check_names(read_error_after(f, [](json& j) { j["meta"]["argv"][1] = 5; }), f, "meta.argv[1]",
              "expected a string, got number");
  check_names(read_error_after(f, [](json& j) { j["device"]["cluster_launch"] = 1; }), f,
              "device.cluster_launch", "expected a boolean, got number");
  check_names(read_error_after(f, [](json& j) { j["kind"] = "sweeps"; }), f, "kind",
              "expected one of calibration, prediction, sweep");
  check_names(read_error_after(f, [](json& j) { j["points"][0] = 3; }), f, "points[0]",
              "expected an object, got number");
}

TEST_CASE("nested calibration and prediction errors name the field path", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  const json cal = to_json_value(results("calibration"))["calibration"];
  const json pred = to_json_value(results("prediction"))["predictions"];
  check_names(read_error_after(f, [&](json& j) {
                j["calibration"] = cal;
                j["calibration"]["barrier"][1]["p"] = 2;  // same P as element 0
              }),
              f, "calibration.barrier[1].p", "P 2 appears more than once");
  check_names(read_error_after(f, [&](json& j) {
                j["calibration"] = cal;
                j["calibration"]["max_active_clusters"][0].erase("clusters");
              }),
              f, "calibration.max_active_clusters[0].clusters", "missing field");
  // A constant this build does not know: the file was fitted for another form of the model.
  json constants = {{"fitted_on", "test"}, {"rest_overlap", 0.4}};
  for (const auto& fld : kTimeModelFields) constants[fld.name] = 1.0;
  check_names(read_error_after(f, [&](json& j) {
                j["calibration"] = cal;
                j["calibration"]["time_model"] = constants;
              }),
              f, "calibration.time_model", "unknown constant 'rest_overlap'");
  constants.erase("rest_overlap");
  {
    const fs::path ok = dir.path / "ok.json";
    json j = to_json_value(results("calibration"));
    j["calibration"]["time_model"] = constants;
    std::ofstream(ok) << j.dump();
    ResultsFile r;
    REQUIRE_NOTHROW(r = read_results(ok));
    REQUIRE(r.calibration->time_model);
    CHECK(r.calibration->time_model->cta_us == 1.0);
  }
  check_names(read_error_after(f, [&](json& j) {
                j["predictions"] = pred;
                j["predictions"][1]["rows"][2]["legal"] = "yes";
              }),
              f, "predictions[1].rows[2].legal", "expected a boolean, got string");
  check_names(read_error_after(f, [&](json& j) {
                j["predictions"] = pred;
                j["predictions"][0]["best_p"] = "2";
              }),
              f, "predictions[0].best_p", "expected an integer, got string");
}

// A calibration written with a constant of a term this model lacks: read where it holds the value that switches the
// term off (the predictions are this model's), refused where it holds another (they cannot be reproduced); the
// constant of a schedule this build lacks reads at any value.
TEST_CASE("a removed term's constant reads at the value that switches it off, and is refused at any other", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  json constants = {{"fitted_on", "test"}};
  for (const auto& fld : kTimeModelFields) constants[fld.name] = 1.0;
  auto read_with = [&](const char* name, double value) {
    json j = to_json_value(results("calibration"));
    j["calibration"]["time_model"] = constants;
    j["calibration"]["time_model"][name] = value;
    spit(f, j.dump());
    return read_results(f);
  };
  for (const auto& r : kRemovedTimeModelFields) {
    INFO(r.name);
    CHECK_FALSE(find_time_model_field(r.name));
    const ResultsFile ok = read_with(r.name, r.off);
    REQUIRE(ok.calibration->time_model);
    CHECK(ok.calibration->time_model->cta_us == 1.0);
    CHECK(to_json_value(ok)["calibration"]["time_model"].count(r.name) == 0);  // never written
    if (r.with || r.schedule) {  // unused while its term's first constant is off, or its schedule's: any value
      CHECK_NOTHROW(read_with(r.name, 30.0));
      continue;
    }
    check_names(read_error_after(f, [&](json& j) {
                  j["calibration"] = to_json_value(results("calibration"))["calibration"];
                  j["calibration"]["time_model"] = constants;
                  j["calibration"]["time_model"][r.name] = r.off + 0.3;
                }),
                f, std::string("calibration.time_model.") + r.name, "this build has no such term");
  }
}

// The flat tables drive the reader: every field they name is written, and missing it is an
// error naming its path.
TEST_CASE("every field of the flat tables is required on read", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  const json cal = to_json_value(results("calibration"))["calibration"];
  const json pred = to_json_value(results("prediction"))["predictions"];
  for (const auto& fd : io::kDeviceFields)
    check_names(read_error_after(f, [&](json& j) { j["device"].erase(fd.name); }), f,
                std::string("device.") + fd.name, "missing field");
  for (const auto& fd : io::kStatFields)
    check_names(read_error_after(f, [&](json& j) { j["points"][0]["time_ms"].erase(fd.name); }), f,
                std::string("points[0].time_ms.") + fd.name, "missing field");
  for (const auto& fd : io::kPointFields)
    check_names(read_error_after(f, [&](json& j) { j["points"][2].erase(fd.name); }), f,
                std::string("points[2].") + fd.name, "missing field");
  for (const auto& fd : io::kLimitFields)
    check_names(read_error_after(f, [&](json& j) {
                  j["calibration"] = cal;
                  j["calibration"]["limits"].erase(fd.name);
                }),
                f, std::string("calibration.limits.") + fd.name, "missing field");
  for (const auto& fd : io::kKernelFields)
    check_names(read_error_after(f, [&](json& j) {
                  j["calibration"] = cal;
                  j["calibration"]["kernels"][1].erase(fd.name);
                }),
                f, std::string("calibration.kernels[1].") + fd.name, "missing field");
  for (const auto& fd : io::kPredictionRowFields)
    check_names(read_error_after(f, [&](json& j) {
                  j["predictions"] = pred;
                  j["predictions"][1]["rows"][2].erase(fd.name);
                }),
                f, std::string("predictions[1].rows[2].") + fd.name, "missing field");
  for (const auto& fd : io::kCandidateFields)
    check_names(read_error_after(f, [&](json& j) {
                  j["predictions"] = pred;
                  j["predictions"][0]["candidates"][1].erase(fd.name);
                }),
                f, std::string("predictions[0].candidates[1].") + fd.name, "missing field");
}

TEST_CASE("a top level that is not an object is rejected", "[json]") {
  std::string msg;
  try {
    results_from_json(json::array(), "x.json");
  } catch (const ResultsFileError& e) {
    msg = e.what();
  }
  CHECK(msg == "x.json: expected an object at the top level, got array");
}

TEST_CASE("make_meta records argv, build and UTC time", "[json]") {
  const char* argv[] = {"credit", "predict", "--shape", "4096x65536"};
  const Meta m = make_meta(4, argv);
  CHECK(m.argv == std::vector<std::string>{"credit", "predict", "--shape", "4096x65536"});
  // The build's identity is defined for src/io/meta.cpp alone; the label --version prints agrees with it.
  CHECK(!m.tool_version.empty());
  CHECK(!m.git_sha.empty());
  CHECK(this_build_label() == "credit " + m.tool_version + " (" + m.git_sha + ")");
  CHECK(m.build_defines == this_build_defines());
  CHECK(m.build_defines_recorded);
  REQUIRE(m.utc_time.size() == 20);
  CHECK(m.utc_time[4] == '-');
  CHECK(m.utc_time[10] == 'T');
  CHECK(m.utc_time[13] == ':');
  CHECK(m.utc_time[19] == 'Z');
  CHECK(m.utc_time.substr(0, 2) == "20");
  CHECK(format_utc_iso8601(0) == "1970-01-01T00:00:00Z");
  CHECK(format_utc_iso8601(1700000000) == "2023-11-14T22:13:20Z");
  CHECK(make_meta(0, nullptr).argv.empty());
}

TEST_CASE("values no measurement can have are rejected with file and field", "[json]") {
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  // points[0] passed (staged); points[2] failed.
  for (double t : {-0.5, 0.0})
    check_names(read_error_after(f, [t](json& j) { j["points"][0]["time_ms"]["median"] = t; }), f,
                "points[0].time_ms.median", "a passed point needs a positive, finite time");
  check_names(read_error_after(f, [](json& j) { j["points"][0]["time_ms"]["median"] = nullptr; }), f,
              "points[0].time_ms.median", "got null (NaN)");
  check_names(read_error_after(f, [](json& j) { j["points"][3]["n"] = 0; }), f, "points[3].n",
              "expected a positive integer, got 0");
  check_names(read_error_after(f, [](json& j) { j["points"][1]["m"] = -4; }), f, "points[1].m",
              "expected a positive integer, got -4");
  check_names(read_error_after(f, [](json& j) { j["points"][4]["workload"] = "layernrom"; }), f,
              "points[4].workload", "unknown workload 'layernrom'");
  const json pred = to_json_value(results("prediction"))["predictions"];
  check_names(read_error_after(f, [&](json& j) {
                j["predictions"] = pred;
                j["predictions"][1]["workload"] = "nosuch";
              }),
              f, "predictions[1].workload", "unknown workload 'nosuch'");
  check_names(read_error_after(f, [&](json& j) {
                j["predictions"] = pred;
                j["predictions"][0]["n"] = 0;
              }),
              f, "predictions[0].n", "expected a positive integer");
}

TEST_CASE("a calibration's device needs SMs, shared memory and an L2", "[json]") {
  // sm_count 0 read, then made every prediction NaN (the time model divides by it).
  TempDir dir;
  const fs::path f = dir.path / "r.json";
  const json cal = to_json_value(results("calibration"))["calibration"];
  for (const char* k : {"sm_count", "smem_per_block_optin", "smem_per_sm", "l2_bytes"})
    for (int v : {0, -1}) {
      INFO(k << " = " << v);
      check_names(read_error_after(f, [&](json& j) {
                    j["calibration"] = cal;
                    j["calibration"]["device"][k] = v;
                  }),
                  f, std::string("calibration.device.") + k, "expected a positive integer, got " + std::to_string(v));
    }
}

TEST_CASE("only regular files are read, and read errors name the file", "[json]") {
  TempDir dir;
  const auto error_of = [](const fs::path& p) {
    try {
      read_results(p);
    } catch (const ResultsFileError& e) {
      CHECK(e.file() == p.string());
      return std::string(e.what());
    }
    return std::string();
  };
  // /dev/zero was read until memory ran out; a FIFO blocked on open.
  CHECK(error_of("/dev/zero") == "/dev/zero: is not a regular file, expected a results JSON file");
  const fs::path fifo = dir.path / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of(fifo) == fifo.string() + ": is not a regular file, expected a results JSON file");
  const fs::path link = dir.path / "link.json";  // symlinks are followed: the target decides
  fs::create_symlink("/dev/zero", link);
  CHECK(error_of(link) == link.string() + ": is not a regular file, expected a results JSON file");
  fs::create_symlink(dir.path / "nowhere.json", dir.path / "dangling.json");
  CHECK(error_of(dir.path / "dangling.json").find(": cannot open: No such file or directory") != std::string::npos);
  const fs::path good = dir.path / "good.json";
  write_results(good, results("sweep"));
  fs::create_symlink(good, dir.path / "good-link.json");
  CHECK(read_results(dir.path / "good-link.json").points.size() == 5);
  // A regular file whose read(2) fails: libstdc++ threw std::ios_base::failure without the path.
  if (fs::is_regular_file("/proc/self/mem"))
    CHECK(error_of("/proc/self/mem").rfind("/proc/self/mem: read error", 0) == 0);
}

TEST_CASE("points that did not pass may carry no time; a control point's T_ctrl may be <= 0", "[json]") {
  json j = to_json_value(results("sweep"));
  j["points"][2]["time_ms"]["median"] = 0.0;     // failed
  j["points"][3]["time_ms"]["median"] = nullptr;  // skipped
  j["points"][0]["schedule"] = "control";         // passed: a difference of two medians
  j["points"][0]["time_ms"]["median"] = -0.0006;
  CHECK(results_from_json(j, "r.json").points.size() == 5);
  j["points"][0]["time_ms"]["median"] = nullptr;  // but never NaN
  CHECK_THROWS_AS(results_from_json(j, "r.json"), ResultsFileError);
}

namespace {

// `text` gzipped into `path` (whatever its name), as `gzip -c` writes it.
void write_gzip(const fs::path& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb9");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, text.data(), unsigned(text.size())) == int(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
}

}  // namespace

TEST_CASE("a gzipped results file reads as the plain one whatever its name", "[json]") {
  TempDir dir;
  ResultsFile r;
  r.kind = "sweep";
  r.copy_gbps = 3007.5;
  r.points = {test::sweep_point("layernorm", 333, 201088, "cluster", 16, 0.125)};
  const fs::path plain = dir.path / "sweep.json";
  write_results(plain, r);
  std::ifstream in(plain, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* name : {"sweep.json.gz", "named-as-plain.json"}) {
    write_gzip(dir.path / name, text);
    const ResultsFile back = read_results(dir.path / name);
    REQUIRE(back.points.size() == 1);
    CHECK(back.points[0].n == 201088);
    CHECK(back.points[0].time_ms.median == 0.125);
    CHECK(back.copy_gbps == 3007.5);
  }
  // A gzip stream cut short is an error naming the file, never a partial read.
  std::ifstream gz(dir.path / "sweep.json.gz", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(gz)), std::istreambuf_iterator<char>());
  const fs::path cut = dir.path / "cut.json.gz";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  try {
    read_results(cut);
    FAIL("a truncated gzip stream was read");
  } catch (const std::exception& e) {
    const std::string what = e.what();
    CHECK(what.find("cut.json.gz") != std::string::npos);
    CHECK(what.find("gzipped but truncated or corrupt") != std::string::npos);
  }
}

