// Measured DRAM traffic on the CPU side: Nsight Compute's CSV read back from canned
// logs in ncu's documented layouts, kernels attributed to the targets through the markers, the
// >5% flag, the JSON and CSV records, and the whole child-process run against a stand-in ncu
// (tests/fixtures/ncu/fake_ncu.sh), the permission error included.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "support/error_of.hpp"
#include "core/workload_registry.hpp"
#include "io/csv.hpp"
#include "io/json_records.hpp"
#include "core/dram_traffic.hpp"
#include "traffic/launch_plan.hpp"
#include "traffic/ncu_csv.hpp"
#include "traffic/profile_traffic.hpp"
#include "support/sweep_point.hpp"
#include "traffic/traffic_table.hpp"

namespace fs = std::filesystem;
using namespace credit;
using namespace credit::traffic;
using namespace credit::dram;

namespace {

const fs::path kFixtures = fs::path(CREDIT_FIXTURE_DIR) / "ncu";

std::string read_fixture(const std::string& name) {
  std::ifstream in(kFixtures / name, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The four targets of raw.log / raw-manifest.tsv (rms_softmax at 1024 x 65536).
std::vector<LaunchTarget> raw_targets() {
  return {{"rms_softmax", 1024, 65536, "global_reread", 1},
          {"rms_softmax", 1024, 65536, "staged", 1},
          {"rms_softmax", 1024, 65536, "cluster", 8},
          {"rms_softmax", 1024, 65536, "local_fusion", 4}};
}

// A passed point with the static figures' bytes, as bench records it.
SweepPoint point(const LaunchTarget& t, double ms = 1.0) {
  const WorkloadInfo& w = find_workload(t.workload);
  SweepPoint p = test::sweep_point(t.workload, t.m, t.n, t.schedule, t.p, ms);
  p.time_ms = {ms, ms, ms, 5};
  p.compulsory_bytes = double(t.m) * w.figures.d_fixed(double(t.n));
  p.traffic_bytes = p.compulsory_bytes + (t.schedule == "global_reread" ? double(t.m * t.n) * w.figures.b_reread : 0.0);
  return p;
}

using credit::test::error_of;

// Environment of the stand-in ncu for one run, and a TMPDIR of its own (a failed run keeps its
// files); both go at the end of the scope.
struct FakeNcu {
  FakeNcu(const std::string& log, const std::string& manifest, int status = 0, const std::string& out = "")
      : tmp(fs::temp_directory_path() / ("credit-traffic-test-" + std::to_string(::getpid()))),
        old_tmpdir(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "") {
    fs::create_directories(tmp);
    set("TMPDIR", tmp.string());
    set("FAKE_NCU_LOG", log.empty() ? "" : (kFixtures / log).string());
    set("FAKE_NCU_MANIFEST", manifest.empty() ? "" : (kFixtures / manifest).string());
    set("FAKE_NCU_STATUS", std::to_string(status));
    set("FAKE_NCU_STDOUT", out);
  }
  ~FakeNcu() {
    for (const char* v : {"FAKE_NCU_LOG", "FAKE_NCU_MANIFEST", "FAKE_NCU_STATUS", "FAKE_NCU_STDOUT"}) ::unsetenv(v);
    if (old_tmpdir.empty()) ::unsetenv("TMPDIR");
    else set("TMPDIR", old_tmpdir);
    std::error_code ec;
    fs::remove_all(tmp, ec);
  }
  fs::path tmp;
  std::string old_tmpdir;
  static void set(const char* name, const std::string& v) { ::setenv(name, v.c_str(), 1); }
  ProfilerSetup setup() const { return {(kFixtures / "fake_ncu.sh").string(), "/bin/credit-not-run", 0, 7}; }
};

}  // namespace

TEST_CASE("ncu's raw page: a row per kernel, thousands separators, quoted names with commas", "[traffic]") {
  const auto k = parse_ncu_log(read_fixture("raw.log"));
  REQUIRE(k.size() == 12);
  CHECK(k[0].name == "credit_traffic_probe");
  CHECK(k[2].name ==
        "void credit::kernels::global_reread_kernel<credit::workloads::RmsSoftmax>(credit::RowOperands)");
  CHECK(k[2].read_bytes == 702545920.0);
  CHECK(k[2].write_bytes == 244000000.0);
  CHECK(k[4].grid_x == 3);
  CHECK(k[5].name.find("DsmemExchange, 8>") != std::string::npos);
}

TEST_CASE("ncu's details page: a row per metric, grouped by kernel ID", "[traffic]") {
  const auto k = parse_ncu_log(read_fixture("details.log"));
  REQUIRE(k.size() == 4);
  CHECK(k[2].read_bytes == 268437760.0);
  CHECK(k[2].write_bytes == 244000000.0);
  CHECK(k[3].write_bytes == 24435968.0);
  CHECK(k[1].grid_x == 1);
}

TEST_CASE("no permission for the counters is 'unavailable', with what to do", "[traffic]") {
  try {
    parse_ncu_log(read_fixture("permission.log"));
    FAIL("no exception");
  } catch (const ProfilerUnavailable& e) {
    CHECK(std::string(e.what()).find("ERR_NVGPUCTRPERM") != std::string::npos);
    CHECK(std::string(e.what()).find("NVreg_RestrictProfilingToAdminUsers=0") != std::string::npos);
  }
}

TEST_CASE("whatever is not a clean byte count throws: never a wrong number", "[traffic]") {
  const std::string head =
      "\"ID\",\"Kernel Name\",\"Grid Size\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n";
  const auto parse = [&](const std::string& units, const std::string& row) { return parse_ncu_log(head + units + row); };
  const std::string bytes = "\"\",\"\",\"\",\"byte\",\"byte\"\n";
  CHECK(parse(bytes, "\"0\",\"k\",\"(1, 1, 1)\",\"12\",\"34\"\n").at(0).write_bytes == 34.0);
  CHECK_THROWS_AS(parse("\"\",\"\",\"\",\"Mbyte\",\"byte\"\n", "\"0\",\"k\",\"(1, 1, 1)\",\"1.2\",\"34\"\n"),
                  ProfilerError);
  CHECK_THROWS_AS(parse(bytes, "\"0\",\"k\",\"(1, 1, 1)\",\"n/a\",\"34\"\n"), ProfilerError);
  CHECK_THROWS_AS(parse(bytes, "\"0\",\"k\",\"(1, 1, 1)\",\"-5\",\"34\"\n"), ProfilerError);
  CHECK(parse("", "\"0\",\"k\",\"(1, 1, 1)\",\"12\",\"34\"\n").at(0).read_bytes == 12.0);  // no units row: base
  CHECK_THROWS_AS(parse_ncu_log("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n"), ProfilerError);
  CHECK_THROWS_AS(parse_ncu_log("==ERROR== The application returned an error code (1).\n"), ProfilerError);
  CHECK(parse_ncu_log("==PROF== Disconnected from process 1\n==WARNING== No kernels were profiled.\n").empty());
  // The child prepares the L2 for one replay pass; a second would start warm.
  CHECK(parse_ncu_log("==PROF== Profiling \"k\" - 0: 0%....50%....100% - 1 pass\n").empty());
  CHECK_THROWS_AS(parse_ncu_log("==PROF== Profiling \"k\" - 0: 0%....50%....100% - 2 passes\n"), ProfilerError);
}

TEST_CASE("CSV fields: quotes, commas inside quotes, doubled quotes", "[traffic]") {
  CHECK(csv_fields("\"a\",\"b, c\",\"d\"\"e\",") == std::vector<std::string>{"a", "b, c", "d\"e", ""});
}

TEST_CASE("launch targets and the manifest round-trip; malformed ones are refused", "[traffic]") {
  const LaunchTarget t{"rms_softmax", 1024, 65536, "cluster", 8};
  CHECK(format_target(t) == "rms_softmax:1024x65536:cluster:8");
  const LaunchTarget back = parse_target(format_target(t));
  CHECK((back.workload == t.workload && back.m == t.m && back.n == t.n && back.schedule == t.schedule && back.p == t.p));
  for (const char* bad : {"rms_softmax:1024x65536:cluster", "rms_softmax:1024:cluster:8", "rms_softmax:0x5:staged:1",
                          ":4x4:staged:1", "w:4x4:staged:x"})
    CHECK_THROWS_AS(parse_target(bad), std::invalid_argument);
  const std::vector<ManifestEntry> m{{true, ""}, {false, "a reason\twith a tab"}};
  const auto again = parse_manifest(format_manifest(m), 2);
  CHECK(again[0].launched);
  CHECK(!again[1].launched);
  CHECK(again[1].reason == "a reason with a tab");
  CHECK_THROWS_AS(parse_manifest(format_manifest(m), 3), ProfilerError);
  CHECK_THROWS_AS(parse_manifest("1\tlaunched\n", 1), ProfilerError);
}

TEST_CASE("kernels after a marker are its target's, summed with the drain's writes; a skipped target has none",
          "[traffic]") {
  const auto kernels = parse_ncu_log(read_fixture("raw.log"));
  const auto manifest = parse_manifest(read_fixture("raw-manifest.tsv"), 4);
  const auto d = attribute_kernels(kernels, manifest);
  REQUIRE(d.size() == 4);
  REQUIRE(d[0]);
  CHECK(d[0]->read_bytes == 702545920.0);  // not the drain's reads: its own scrub buffer
  CHECK(d[0]->write_bytes == 244000000.0 + 24500992.0);  // what the kernel left dirty counts
  CHECK(d[0]->kernels == 1);
  CHECK(!d[1]);
  REQUIRE(d[2]);
  CHECK(d[2]->write_bytes == 268451840.0);
  REQUIRE(d[3]);  // local fusion: two stage kernels and the apply kernel
  CHECK(d[3]->kernels == 3);
  CHECK(d[3]->read_bytes == 268439552.0 + 268505088.0 + 268570624.0);
  CHECK(d[3]->write_bytes == 65536.0 + 65536.0 + 268435456.0);
}

TEST_CASE("kernels that do not match the manifest are refused", "[traffic]") {
  auto kernels = parse_ncu_log(read_fixture("raw.log"));
  const auto manifest = parse_manifest(read_fixture("raw-manifest.tsv"), 4);
  SECTION("a marker naming another target") {
    kernels[4].grid_x = 2;
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("a target launched but not profiled") {
    kernels.resize(7);  // the local-fusion marker and kernels are missing
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("a marker with no kernel but the drain after it") {
    kernels.erase(kernels.begin() + 5);
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("a target without its drain") {
    kernels.erase(kernels.begin() + 3);
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("a kernel after the drain") {
    std::swap(kernels[10], kernels[11]);
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("a kernel before any marker") {
    std::swap(kernels[1], kernels[2]);
    CHECK_THROWS_AS(attribute_kernels(kernels, manifest), ProfilerError);
  }
  SECTION("nothing profiled at all, not even the probe") {
    CHECK_THROWS_AS(attribute_kernels({}, parse_manifest("0\tskipped\tx\n", 1)), ProfilerError);
  }
}

TEST_CASE("bytes per element beside the model, and the flag above 5%", "[traffic]") {
  SweepPoint p = point({"rms_softmax", 1024, 65536, "global_reread", 1});
  const double e = 1024.0 * 65536.0;
  const WorkloadInfo& w = find_workload("rms_softmax");
  p.dram = DramTraffic{10.0 * e, 4.0 * e, 1};
  const PerElement b = per_element(p);
  CHECK(b.total == 14.0);
  CHECK(b.compulsory == w.figures.compulsory);
  CHECK(b.reread == w.figures.b_reread);
  CHECK(b.model == w.figures.compulsory + w.figures.b_reread);
  CHECK(!b.over_model);
  p.dram = DramTraffic{1.05 * p.traffic_bytes, 0, 1};  // exactly 5% above: not flagged
  CHECK(!over_model(p, *p.dram));
  p.dram = DramTraffic{1.0501 * p.traffic_bytes, 0, 1};
  CHECK(over_model(p, *p.dram));
  p.dram.reset();
  CHECK_THROWS_AS(per_element(p), std::logic_error);
}

TEST_CASE("measured traffic round-trips through the JSON records, with the derived figures for readers", "[traffic][json]") {
  ResultsFile r;
  r.kind = "sweep";
  r.points.push_back(point({"rms_softmax", 1024, 65536, "cluster", 8}));
  r.points.back().dram = DramTraffic{268468224.0, 268451840.0, 1};
  r.points.push_back(point({"rms_softmax", 1024, 65536, "staged", 1}));  // not measured
  const nlohmann::json j = to_json_value(r);
  const auto& d = j["points"][0]["dram"];
  CHECK(d["read_bytes"] == 268468224.0);
  CHECK(d["kernels"] == 1);
  CHECK(d["over_model"] == false);
  CHECK(d["compulsory_bytes_per_element"] == 8.0);
  CHECK(j["points"][1]["dram"].is_null());
  const ResultsFile back = results_from_json(j, "t.json");
  REQUIRE(back.points[0].dram);
  CHECK(back.points[0].dram->write_bytes == 268451840.0);
  CHECK(!back.points[1].dram);
  nlohmann::json bad = j;
  bad["points"][0]["dram"]["read_bytes"] = -1;
  CHECK(error_of([&] { results_from_json(bad, "t.json"); })
            .find("points[0].dram.read_bytes: expected a non-negative byte count") != std::string::npos);
  bad = j;
  bad["points"][0]["dram"].erase("kernels");
  CHECK_THROWS_AS(results_from_json(bad, "t.json"), ResultsFileError);
}

TEST_CASE("the CSV and the table carry the measurement and the flag", "[traffic]") {
  std::vector<SweepPoint> pts{point({"rms_softmax", 1024, 65536, "local_fusion", 4}),
                              point({"rms_softmax", 1024, 65536, "cluster", 8})};
  pts[0].dram = DramTraffic{805515264.0, 268566528.0, 3};
  const std::string csv = points_csv(pts);
  CHECK(csv.find(",variant,dram_read_bytes,dram_write_bytes,dram_over_model,reason\n") != std::string::npos);
  CHECK(csv.find(",805515264,268566528,true,\n") != std::string::npos);
  CHECK(csv.find(",,,,\n") != std::string::npos);  // the unmeasured point
  const std::string table = traffic_table(pts);
  CHECK(table.find("local_fusion") != std::string::npos);
  CHECK(table.find("over model") != std::string::npos);
  CHECK(table.find("1 kernel(s) over their model") != std::string::npos);
  CHECK(traffic_table({pts[1]}).empty());
}

TEST_CASE("the ncu command line asks for DRAM bytes, for the profiled range only, the L2 left to the child", "[traffic]") {
  const ProfilerSetup s{"/opt/ncu", "/x/credit", 1, 42};
  const auto c = ncu_command(s, "/t/ncu.csv", "/t/m.tsv", {{"layernorm", 8, 4096, "staged", 1}});
  const std::string line = [&] {
    std::string l;
    for (const auto& a : c) l += a + " ";
    return l;
  }();
  CHECK(c.front() == "/opt/ncu");
  CHECK(line.find("--metrics dram__bytes_read.sum,dram__bytes_write.sum ") != std::string::npos);
  CHECK(line.find("--cache-control none ") != std::string::npos);
  CHECK(line.find("--profile-from-start off ") != std::string::npos);
  CHECK(line.find("--csv --page raw --print-units base --log-file /t/ncu.csv /x/credit --device 1 ") != std::string::npos);
  CHECK(line.find("profile-launches --seed 42 --manifest /t/m.tsv -- layernorm:8x4096:staged:1 ") != std::string::npos);
}

TEST_CASE("a whole run against a stand-in ncu: points get their bytes, a skipped one its reason", "[traffic]") {
  const FakeNcu fake("raw.log", "raw-manifest.tsv");
  std::vector<SweepPoint> pts;
  for (const auto& t : raw_targets()) pts.push_back(point(t));
  SweepPoint copy_pt = pts[0];
  copy_pt.schedule = "copy";  // not a kernel schedule: not profiled
  pts.push_back(copy_pt);
  const MeasureSummary sum = measure_points(pts, fake.setup());
  CHECK(sum.measured == 3);
  REQUIRE(sum.skipped.size() == 1);
  CHECK(sum.skipped[0].find("rms_softmax:1024x65536:staged:1: Eq. 3") == 0);
  REQUIRE(pts[0].dram);
  CHECK(pts[0].dram->read_bytes == 702545920.0);
  CHECK(!pts[1].dram);
  CHECK(per_element(pts[3]).over_model);  // local fusion moves its input three times
  CHECK(!per_element(pts[2]).over_model);
  CHECK(!pts[4].dram);
  pts[1].disposition = Disposition::NotSupported;
  const FakeNcu nothing("", "", 1);  // would fail if it ran
  CHECK(measure_points(pts, nothing.setup()).measured == 0);  // measured points are not profiled again
}

TEST_CASE("a stand-in ncu without permission: unavailable, however it says so", "[traffic]") {
  const std::vector<LaunchTarget> one{{"rms_softmax", 1024, 65536, "cluster", 8}};
  {
    const FakeNcu fake("permission.log", "", 1);
    CHECK_THROWS_AS(profile_targets(fake.setup(), one), ProfilerUnavailable);
  }
  {
    const FakeNcu fake("", "", 1, "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission");
    CHECK_THROWS_AS(profile_targets(fake.setup(), {}), ProfilerUnavailable);
  }
}

TEST_CASE("a failed profiled run is an error with its last lines, never numbers", "[traffic]") {
  const std::vector<LaunchTarget> four = raw_targets();
  SECTION("the child exited non-zero") {
    const FakeNcu fake("raw.log", "raw-manifest.tsv", 1, "credit: a CUDA error in the profiled launch");
    const std::string e = error_of([&] { profile_targets(fake.setup(), four); });
    CHECK(e.find("exited with status 1") != std::string::npos);
    CHECK(e.find("a CUDA error in the profiled launch") != std::string::npos);
  }
  SECTION("no manifest") {
    const FakeNcu fake("raw.log", "");
    CHECK_THROWS_AS(profile_targets(fake.setup(), four), ProfilerError);
  }
  SECTION("no log") {
    const FakeNcu fake("", "raw-manifest.tsv");
    CHECK_THROWS_AS(profile_targets(fake.setup(), four), ProfilerError);
  }
}

TEST_CASE("CREDIT_NCU naming no executable is 'unavailable'", "[traffic]") {
  ::setenv("CREDIT_NCU", "/nonexistent/ncu", 1);
  CHECK_THROWS_AS(find_ncu(), ProfilerUnavailable);
  ::setenv("CREDIT_NCU", (kFixtures / "fake_ncu.sh").c_str(), 1);
  CHECK(find_ncu() == (kFixtures / "fake_ncu.sh").string());
  ::unsetenv("CREDIT_NCU");
}
