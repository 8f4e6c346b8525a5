// An H200 calibration (tests/fixtures/h200-calibration-without-model.json) and the per-device
// calibration cache: a cache written on another GPU or with another schema is never used.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "calibration/calibration_cache.hpp"
#include "io/json_records.hpp"

namespace fs = std::filesystem;
using namespace credit;

#ifndef CREDIT_FIXTURE_DIR
#error "CREDIT_FIXTURE_DIR must name tests/fixtures (tests/CMakeLists.txt defines it)"
#endif

namespace {

// A fresh directory named by $CREDIT_CACHE_DIR for the test's lifetime; both restored after.
struct TempCacheDir {
  fs::path path;
  std::optional<std::string> saved;
  TempCacheDir() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() /
           ("credit_test_cache_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
    if (const char* v = std::getenv("CREDIT_CACHE_DIR")) saved = v;
    ::setenv("CREDIT_CACHE_DIR", path.c_str(), 1);
  }
  ~TempCacheDir() {
    if (saved) ::setenv("CREDIT_CACHE_DIR", saved->c_str(), 1);
    else ::unsetenv("CREDIT_CACHE_DIR");
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempCacheDir(const TempCacheDir&) = delete;
  TempCacheDir& operator=(const TempCacheDir&) = delete;
};

DeviceInfo gpu_named(const std::string& uuid) {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.uuid = uuid;
  d.cc_major = 9;
  d.sm_count = 132;
  d.smem_per_block_optin = 232448;  // a calibration's device must have SMs, shared memory and an L2
  d.smem_per_sm = 233472;
  d.l2_bytes = 62914560;
  return d;
}

ResultsFile calibration_file(const DeviceInfo& d) {
  ResultsFile r;
  r.kind = "calibration";
  r.meta.tool_version = "test";
  r.meta.build_defines = this_build_defines();  // as `credit calibrate` of this build writes it
  r.device = d;
  Calibration c;
  c.device = d;
  c.sm_clock_hz = 1.98e9;
  c.clock_source = "test";
  c.local_load_latency = {30, 29, 31, 15};
  c.remote_load_latency = {200, 199, 201, 15};
  c.barrier[2] = {400, 390, 410, 15};
  c.max_active_clusters[2] = 66;
  c.limits = {65536, 2048, 32, 1024};
  c.kernels.push_back({"layernorm", "staged", 256, 40, 0});
  c.cluster_slots[2] = {66, 132};
  c.cluster_slots_run[2] = {66, 130};
  c.copies = {{1e6, 0.004}, {1e9, 0.25}};
  c.kernel_probes["wvar_bwd"]["partial_one"] = {64, 1 << 20, 3.5};
  r.calibration = c;
  return r;
}

const std::string kThis = "GPU-11111111-2222-3333-4444-555555555555";
const std::string kOther = "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

}  // namespace

TEST_CASE("a recorded H200 calibration reads and is plausible", "[calibrate]") {
  const fs::path path = fs::path(CREDIT_FIXTURE_DIR) / "h200-calibration-without-model.json";
  INFO(path.string() << " is written by `credit --json " << path.string() << " calibrate` on the H200");
  REQUIRE(fs::exists(path));  // missing is a failure, never a skip
  ResultsFile r;
  REQUIRE_NOTHROW(r = read_results(path));
  CHECK(r.kind == "calibration");
  REQUIRE(r.calibration.has_value());
  const Calibration& c = *r.calibration;
  CHECK(c.device.name.find("H200") != std::string::npos);
  CHECK(c.device.uuid == r.device.uuid);
  CHECK(c.local_load_latency.median > 0);
  CHECK(c.remote_load_latency.median > c.local_load_latency.median);
  REQUIRE(c.barrier.count(2) == 1);
  REQUIRE(c.barrier.count(16) == 1);
  CHECK(c.barrier.at(16).median > c.barrier.at(2).median);
  CHECK(c.sm_clock_hz > 1e9);
  for (int p : {2, 4, 8, 16}) {
    INFO("P=" << p);
    CHECK(c.local_read.count(p) == 1);
    CHECK(c.local_store.count(p) == 1);
    CHECK(c.remote_read.count(p) == 1);
    CHECK(c.remote_store.count(p) == 1);
    CHECK(c.max_active_clusters.count(p) == 1);
  }
}

TEST_CASE("calibration cache location follows CREDIT_CACHE_DIR and the GPU UUID", "[calibrate]") {
  TempCacheDir dir;
  CHECK(calibration_cache_dir() == dir.path);
  CHECK(calibration_cache_path(gpu_named(kThis)) == dir.path / (kThis + ".json"));
  CHECK(calibration_cache_path(gpu_named("GPU-a/b")).filename() == "GPU-a_b.json");
  CHECK_THROWS_AS(calibration_cache_path(gpu_named("")), std::invalid_argument);
}

TEST_CASE("calibration cache round trip on the same device", "[calibrate]") {
  TempCacheDir dir;
  const DeviceInfo dev = gpu_named(kThis);
  const fs::path path = store_cached_calibration(calibration_file(dev));
  CHECK(fs::exists(path));
  const CachedCalibration got = find_cached_calibration(dev);
  INFO(got.reason);
  REQUIRE(got.calibration.has_value());
  CHECK(got.reason.empty());
  CHECK(got.calibration->remote_load_latency.median == 200);
  CHECK(got.calibration->barrier.at(2).median == 400);
  CHECK(got.calibration->cluster_slots.at(2) == std::vector<int>{66, 132});
  CHECK(got.calibration->cluster_slots_run.at(2) == std::vector<int>{66, 130});
  const KernelProbe& pr = got.calibration->kernel_probes.at("wvar_bwd").at("partial_one");
  CHECK(pr.m == 64);
  CHECK(pr.n == 1 << 20);
  CHECK(pr.ms == 3.5);
}

TEST_CASE("calibration cache refuses a calibration without the time model's inputs", "[calibrate]") {
  TempCacheDir dir;
  const DeviceInfo dev = gpu_named(kThis);
  ResultsFile old = calibration_file(dev);
  old.calibration->kernels.clear();
  store_cached_calibration(old);
  const CachedCalibration got = find_cached_calibration(dev);
  CHECK_FALSE(got.calibration.has_value());
  CHECK(got.reason.find("predates the time model") != std::string::npos);
}

TEST_CASE("kernel probes under the key the first build with them wrote (stream_probes) still read", "[calibrate]") {
  TempCacheDir dir;
  const DeviceInfo dev = gpu_named(kThis);
  const fs::path path = store_cached_calibration(calibration_file(dev));
  nlohmann::json j = to_json_value(calibration_file(dev));
  j["calibration"]["stream_probes"] = j["calibration"]["kernel_probes"];
  j["calibration"].erase("kernel_probes");
  std::ofstream(path) << j.dump(2);
  const CachedCalibration got = find_cached_calibration(dev);
  INFO(got.reason);
  REQUIRE(got.calibration.has_value());
  CHECK(got.calibration->kernel_probes.at("wvar_bwd").at("partial_one").ms == 3.5);
}

TEST_CASE("calibration cache refuses what it cannot trust", "[calibrate]") {
  TempCacheDir dir;
  const DeviceInfo dev = gpu_named(kThis);

  SECTION("missing") {
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("no cached calibration") != std::string::npos);
  }
  SECTION("written on another device (file copied under this UUID)") {
    const fs::path theirs = store_cached_calibration(calibration_file(gpu_named(kOther)));
    fs::copy_file(theirs, calibration_cache_path(dev));
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("another device") != std::string::npos);
    CHECK(got.reason.find(kOther) != std::string::npos);
  }
  SECTION("the calibration inside names another device") {
    ResultsFile r = calibration_file(dev);
    r.calibration->device.uuid = kOther;
    store_cached_calibration(r);
    CHECK_FALSE(find_cached_calibration(dev).calibration.has_value());
  }
  SECTION("another schema_version") {
    const fs::path path = store_cached_calibration(calibration_file(dev));
    nlohmann::json j = to_json_value(calibration_file(dev));
    j["schema_version"] = kSchemaVersion + 1;
    std::ofstream(path) << j.dump(2);
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("schema_version") != std::string::npos);
  }
  SECTION("not a calibration") {
    ResultsFile r = calibration_file(dev);
    r.kind = "sweep";
    write_results(calibration_cache_path(dev), r);
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("not a calibration") != std::string::npos);
  }
  SECTION("a kernel probe without a positive time") {
    ResultsFile r = calibration_file(dev);
    r.calibration->kernel_probes["wvar_bwd"]["partial_one"].ms = 0;
    write_results(calibration_cache_path(dev), r);
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("kernel_probes.wvar_bwd.partial_one") != std::string::npos);
  }
  SECTION("a device without SMs (every prediction would be NaN)") {
    ResultsFile r = calibration_file(dev);
    r.calibration->device.sm_count = 0;
    write_results(calibration_cache_path(dev), r);
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("calibration.device.sm_count: expected a positive integer, got 0") != std::string::npos);
  }
  SECTION("written by a build with other A/B definitions") {
    ResultsFile r = calibration_file(dev);
    r.meta.build_defines = this_build_defines() + " CREDIT_CLUSTER_POLICY=7";
    write_results(calibration_cache_path(dev), r);
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("compiled with " + r.meta.build_defines) != std::string::npos);
    // The same file serves a build compiled with those definitions.
    CHECK(find_cached_calibration(dev, r.meta.build_defines).calibration.has_value());
  }
  SECTION("not JSON") {
    std::ofstream(calibration_cache_path(dev)) << "{ truncated";
    const CachedCalibration got = find_cached_calibration(dev);
    CHECK_FALSE(got.calibration.has_value());
    CHECK(got.reason.find("unreadable") != std::string::npos);
  }
}
