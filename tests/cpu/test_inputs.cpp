// Inputs: results files of every kind (gzipped or not) and sweep configs, their ranges and their errors;
// and the workload count `credit list` prints, derived from the registry.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>
#include <zlib.h>

#include "catch.hpp"
#include "support/temp_dir.hpp"
#include "core/workload_registry.hpp"
#include "io/json_records.hpp"
#include "io/text_table.hpp"
#include "support/config_files.hpp"
#include "sweep/sweep_config.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

const fs::path kFixtures = CREDIT_FIXTURE_DIR;
const fs::path kSource = CREDIT_SOURCE_DIR;

// A fresh directory per test, removed afterwards.
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("credit_test_inputs") {}
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// `text` gzipped into `path`, as `gzip -c` writes it.
void write_gzip(const fs::path& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb9");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, text.data(), unsigned(text.size())) == int(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
}

// The message of the ResultsFileError reading `path` gives ("" when it reads).
std::string results_error(const fs::path& path, std::initializer_list<std::string_view> kinds = {}) {
  try {
    if (kinds.size() == 0) read_results(path);
    else read_results(path, kinds);
  } catch (const ResultsFileError& e) {
    return e.what();
  }
  return "";
}

std::string config_error(const std::string& json) {
  return test::config_error(test::write_temp("credit_test_inputs", "config.json", json));
}

// The config error names the file, the key, the value given and the limit.
void check_range(const std::string& json, const std::string& key, const std::string& value, const std::string& limit) {
  INFO("config " << json);
  const std::string e = config_error(json);
  CHECK(e.find("config.json: " + key + ": ") != std::string::npos);
  CHECK(e.find("up to " + limit) != std::string::npos);
  CHECK(e.find("got " + value) != std::string::npos);
}

}  // namespace

TEST_CASE("config counts beyond their limits are refused, naming the key, the value and the limit", "[inputs][sweep]") {
  // "samples": 2147483647 was read, and --dry-run's estimate overflowed to "about -904281 s".
  check_range(R"({"samples": 2147483647})", "samples", "2147483647", "100000");
  check_range(R"({"samples": 100001})", "samples", "100001", "100000");
  check_range(R"({"samples": 0})", "samples", "0", "100000");
  check_range(R"({"warmup": 2147483647})", "warmup", "2147483647", "10000");
  check_range(R"({"warmup": -1})", "warmup", "-1", "10000");
  check_range(R"({"widths": [4096, 1073741825]})", "widths[1]", "1073741825", "2^30");
  check_range(R"({"rows": {"layernorm": 0}})", "rows.layernorm", "0", "2^31 - 1");
  check_range(R"({"row_counts": [2147483648]})", "row_counts[0]", "2147483648", "2^31 - 1");
  check_range(R"({"splits": [65]})", "splits[0]", "65", "64");
  check_range(R"({"max_bytes": 1e20})", "max_bytes", "1e+20", "1e15");
  CHECK(config_error(R"({"max_bytes": -5})").find("max_bytes: expected a positive number") != std::string::npos);
  CHECK(config_error(R"({"max_bytes": -5})").find("got -5") != std::string::npos);
  CHECK(config_error(R"({"passes": 3})").find("config.json: passes: expected 1 or 2, got 3") != std::string::npos);
  CHECK(config_error(R"({"cluster_sizes": [2, 32]})")
            .find("config.json: cluster_sizes[1]: expected a cluster size, 2, 4, 8 or 16, got 32") != std::string::npos);
  CHECK(config_error(R"({"cluster_sizes": [4294967298]})").find("got 4294967298") != std::string::npos);
  CHECK(config_error(R"({"samples": 2.5})").find("samples: expected a positive integer up to 100000") != std::string::npos);
  // The limits themselves read.
  const SweepConfig c = read_sweep_config(test::write_temp("credit_test_inputs", "limits.json",
      R"({"samples": 100000, "warmup": 10000, "max_bytes": 1e15, "splits": [64], "widths": [1073741824]})"));
  CHECK(c.samples == kMaxConfigSamples);
  CHECK(c.warmup == kMaxConfigWarmup);
  CHECK(c.max_bytes == kMaxConfigBytes);
  CHECK(c.splits == std::vector<int>{64});
}

TEST_CASE("a results file given as a sweep config is named as one", "[inputs][sweep]") {
  const std::string e = test::config_error(kFixtures / "sweep-paper-h200.json");
  CHECK(e.find("sweep-paper-h200.json: (file): is a results file of kind \"sweep\", expected a sweep config") !=
        std::string::npos);
  CHECK(config_error("[4096]").find("expected a JSON object (a sweep config), got array") != std::string::npos);
}

TEST_CASE("a results file of another kind is named by what it is and what was expected", "[inputs][json]") {
  const fs::path sweep = kFixtures / "sweep-paper-h200.json", cal = kFixtures / "h200-calibration-with-model.json",
                 pred = kFixtures / "predict-lars-65536-h200.json", torch = kFixtures / "sweep-paper-torch-h200.json",
                 ladder = kFixtures / "ladder-seed001-h200.json";
  CHECK(results_error(sweep, {"calibration"}) == sweep.string() + ": is a sweep results file, expected a calibration file");
  CHECK(results_error(cal, {"sweep"}) == cal.string() + ": is a calibration file, expected a sweep results file");
  CHECK(results_error(pred, {"sweep", "calibration"}) ==
        pred.string() + ": is a prediction file, expected a sweep results file or a calibration file");
  CHECK(results_error(ladder, {"sweep"}) == ladder.string() + ": is a ladder results file, expected a sweep results file");
  // A torch-baselines file is a sweep of the peers' points only: not the sweep of credit's kernels.
  CHECK(results_error(torch, {"sweep"}) == torch.string() + ": is a torch-baselines file, expected a sweep results file");
  CHECK(results_error(torch, {"sweep", "baselines"}).empty());
  CHECK(results_error(sweep, {"sweep", "ladder"}).empty());
  CHECK(results_error(sweep).empty());

  const ResultsFile t = read_results(torch), s = read_results(sweep);
  CHECK(results_kind(t) == "baselines");
  CHECK(t.kind == "sweep");  // the file's own kind is kept
  CHECK(results_kind(s) == "sweep");
  CHECK(describe_results_kind(t) == "a torch-baselines file");
  CHECK(describe_results_kind(read_results(cal)) == "a calibration file");
  CHECK(describe_kind("prediction") == "a prediction file");
  try {
    check_results_kind(s, "S.json", {"calibration"}, "a calibration (credit calibrate --json)");
    FAIL("a sweep passed as a calibration");
  } catch (const ResultsFileError& e) {
    CHECK(std::string(e.what()) == "S.json: is a sweep results file, expected a calibration (credit calibrate --json)");
    CHECK(e.file() == "S.json");
  }
  CHECK_NOTHROW(check_results_kind(s, "S.json", {"sweep"}));
}

TEST_CASE("the kind is checked before the fields: a sweep with a bad field is still named a sweep", "[inputs][json]") {
  TempDir dir;
  std::string text = slurp(kFixtures / "sweep-paper-h200.json");
  const auto at = text.find("\"copy_gbps\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 11, "\"copy_gbpz\"");  // copy_gbps is now missing
  const fs::path f = dir.write("broken-sweep.json", text);
  CHECK(results_error(f, {"calibration"}) == f.string() + ": is a sweep results file, expected a calibration file");
  CHECK(results_error(f, {"sweep"}) == f.string() + ": copy_gbps: missing field");  // the field, where the kind fits
}

TEST_CASE("files that are no results file say what they are and what was expected", "[inputs][json]") {
  TempDir dir;
  const fs::path config = kSource / "configs" / "quick.json";
  CHECK(results_error(config) ==
        config.string() + ": is a sweep config (for credit run-sweep --config), expected a results JSON file");
  CHECK(results_error(config, {"calibration"}) ==
        config.string() + ": is a sweep config (for credit run-sweep --config), expected a calibration file");

  const fs::path text = dir.write("notes.md", "# credit\nnot JSON\n");
  const std::string e = results_error(text, {"sweep"});
  CHECK(e.rfind(text.string() + ": not valid JSON (parse error at line 1, column 1", 0) == 0);
  CHECK(e.find("expected a sweep results file") != std::string::npos);
  CHECK(e.find("[json.exception") == std::string::npos);

  const fs::path other = dir.write("other.json", R"({"source": "a note", "rungs_us": {}})");
  CHECK(results_error(other) ==
        other.string() + ": is JSON but not a results file (no schema_version or kind), expected a results JSON file");
  const fs::path array = dir.write("array.json", "[1, 2]");
  CHECK(results_error(array) ==
        array.string() + ": is JSON but not a results file (its top level is array), expected a results JSON file");
  const fs::path empty = dir.write("empty.json", "\n");
  CHECK(results_error(empty).rfind(empty.string() + ": not valid JSON (parse error at line 2, column 1", 0) == 0);
}

TEST_CASE("gzipped inputs read by content; a truncated one names the file and what was expected", "[inputs][json]") {
  TempDir dir;
  const std::string cal = slurp(kFixtures / "h200-calibration-with-model.json");
  const fs::path gz = dir.path / "cal.json.gz";
  write_gzip(gz, cal);
  CHECK(results_error(gz, {"calibration"}).empty());
  CHECK(results_error(gz, {"sweep"}) == gz.string() + ": is a calibration file, expected a sweep results file");

  const std::string bytes = slurp(gz);
  const fs::path cut = dir.write("cut.json.gz", bytes.substr(0, bytes.size() / 3));
  CHECK(results_error(cut, {"calibration"}) ==
        cut.string() + ": is gzipped but truncated or corrupt, expected a calibration file");
  CHECK(results_error(cut) == cut.string() + ": is gzipped but truncated or corrupt, expected a results JSON file");

  // A gzipped config is a config, as a reader of its content sees it, whatever its name.
  const fs::path config_gz = dir.path / "sweep.json";
  write_gzip(config_gz, slurp(kSource / "configs" / "quick.json"));
  CHECK(results_error(config_gz).find("is a sweep config") != std::string::npos);
  CHECK(read_sweep_config(config_gz).name == "quick");
}

namespace {

// What `credit list` prints on stdout.
std::string credit_list() {
  const std::string cmd = std::string("'") + CREDIT_BINARY + "' list 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  REQUIRE(::pclose(p) == 0);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

}  // namespace

TEST_CASE("credit list prints the registry's workload count and one aligned row per workload", "[inputs][list]") {
  const std::string out = credit_list();
  const auto lines = lines_of(out);
  REQUIRE(lines.size() > all_workloads().size() + 3);
  // The count is the registry's, so that it cannot go stale as workloads are added.
  CHECK(lines[0].rfind(std::to_string(all_workloads().size()) + " workloads ", 0) == 0);
  const std::string controls = std::to_string(negative_controls().size()) + " negative controls: ";
  bool controls_counted = false;
  for (const auto& l : lines) controls_counted = controls_counted || l.rfind(controls, 0) == 0;
  CHECK(controls_counted);
  // One row per workload, every column at the header's place, the longest name (softmax_dropout_bwd) included.
  const std::string& header = lines[1];
  const auto structure_at = header.find("structure");
  const auto d_fixed_end = header.find("D_fixed/row") + std::string("D_fixed/row").size();
  REQUIRE(structure_at != std::string::npos);
  for (std::size_t i = 0; i < all_workloads().size(); ++i) {
    const std::string& row = lines[3 + i];
    INFO(row);
    CHECK(row.rfind(all_workloads()[i].name + " ", 0) == 0);
    CHECK(row.substr(structure_at).rfind("reduction-reuse", 0) == 0);
    CHECK(row[d_fixed_end - 1] != ' ');  // right-aligned under its header
    CHECK(row[d_fixed_end] == ' ');
  }
  // The columns explained in two lines under the table.
  const std::string& blank = lines[3 + all_workloads().size()];
  CHECK(blank.empty());
  const std::string legend = lines[4 + all_workloads().size()] + "\n" + lines[5 + all_workloads().size()];
  for (const char* col : {"L: ", "q: ", "Q: ", "s: ", "b_keep: ", "S_scratch: ", "b_reread: ", "D_fixed/row: ",
                          "compulsory: "}) {
    INFO(col);
    CHECK(legend.find(col) != std::string::npos);
  }
  CHECK(lines[6 + all_workloads().size()].empty());
}

TEST_CASE("a text table's columns are as wide as their widest cell, a long name or a large shape", "[inputs][list]") {
  using io::TextTable;
  TextTable t({{"workload", TextTable::Align::left}, {"M"}, {"N"}, {"T ms"}, {"", TextTable::Align::left}});
  t.row({"layernorm", "4096", "65536", "0.1250", "<- pick"});
  t.row({"softmax_dropout_bwd", "2147483647", "1073741824", "15552846.4472", ""});
  t.row({"lars", "no"}, "refused: the reason follows the cells given");
  CHECK(t.str() ==
        "workload                     M          N          T ms\n"
        "layernorm                 4096      65536        0.1250 <- pick\n"
        "softmax_dropout_bwd 2147483647 1073741824 15552846.4472\n"
        "lars                        no  refused: the reason follows the cells given\n");
  CHECK(t.width(0) == std::string("softmax_dropout_bwd").size());
  TextTable u({{"a", TextTable::Align::left}, {"bytes"}}, "  ");
  u.units({"", "B/elem"});
  u.row({"x", "4"});
  CHECK(u.str() == "a   bytes\n   B/elem\nx       4\n");
}
