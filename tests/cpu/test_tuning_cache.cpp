// The tuning cache (src/tuning/tuning_cache.hpp): keying, scope (another GPU or build answers nothing),
// a corrupt file read as empty with a warning, concurrent writers, export and import, and the nearest-M rule.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "support/temp_dir.hpp"
#include "tuning/tuning_cache.hpp"

namespace fs = std::filesystem;
using namespace credit;

namespace {

struct TempDir : credit::test::TempDir {
  TempDir() : credit::test::TempDir("credit-tuning-cache") {}
};

const TuningScope kHere{"GPU-aaaa", {"abc1234", ""}, false};

TuningEntry entry(const std::string& workload, long long m, long long n, const std::string& schedule, int p,
                  const TuningScope& where = kHere, const std::string& dtype = "f32") {
  TuningEntry e;
  e.key = {workload, dtype, m, n};
  e.pick = {schedule, p, 0.5};
  e.timed = {e.pick, {"staged", 1, 0.9}};
  e.gpu_name = "NVIDIA H200";
  e.gpu_uuid = where.gpu_uuid;
  e.build = where.build;
  e.utc_time = "2026-12-07T10:00:00Z";
  return e;
}

// A Log that keeps its warnings.
struct Warnings {
  std::vector<std::string> seen;
  Log log() {
    return {{}, [this](const std::string& s) { seen.push_back(s); }};
  }
};

}  // namespace

TEST_CASE("tuning cache: an entry answers for its key alone", "[tuning]") {
  TempDir d;
  const fs::path file = d.path / "gpu.tuning.json";
  record_tuning(file, entry("layernorm", 4096, 65536, "cluster", 8));
  record_tuning(file, entry("layernorm", 4096, 65536, "split_global", 16, kHere, "bf16"));
  const auto all = load_tuning(file);
  REQUIRE(all.size() == 2);
  const TuningAnswer f32 = lookup_tuning(all, {"layernorm", "f32", 4096, 65536}, kHere);
  REQUIRE(f32.entry);
  CHECK(f32.exact);
  CHECK(f32.entry->pick.schedule == "cluster");
  CHECK(f32.entry->pick.p == 8);
  CHECK(lookup_tuning(all, {"layernorm", "bf16", 4096, 65536}, kHere).entry->pick.schedule == "split_global");
  CHECK_FALSE(lookup_tuning(all, {"rmsnorm", "f32", 4096, 65536}, kHere).entry);
  CHECK_FALSE(lookup_tuning(all, {"layernorm", "f32", 4096, 32768}, kHere).entry);
  CHECK_FALSE(lookup_tuning(all, {"layernorm", "f32", 2048, 65536}, kHere).entry);
  // Recording the same key again replaces its entry.
  record_tuning(file, entry("layernorm", 4096, 65536, "registers", 1));
  const auto again = load_tuning(file);
  CHECK(again.size() == 2);
  CHECK(lookup_tuning(again, {"layernorm", "f32", 4096, 65536}, kHere).entry->pick.schedule == "registers");
}

TEST_CASE("tuning cache: an entry of another GPU or another build is not used", "[tuning]") {
  const TuningKey key{"layernorm", "f32", 4096, 65536};
  const TuningScope other_gpu{"GPU-bbbb", kHere.build, false};
  const TuningScope other_sha{kHere.gpu_uuid, {"def5678", ""}, false};
  const TuningScope other_defines{kHere.gpu_uuid, {"abc1234", "CREDIT_CLUSTER_POLICY=2"}, false};
  const std::vector<TuningEntry> all = {entry("layernorm", 4096, 65536, "cluster", 8)};
  const TuningAnswer gpu = lookup_tuning(all, key, other_gpu);
  CHECK_FALSE(gpu.entry);
  CHECK(gpu.reason.find("another GPU") != std::string::npos);
  for (const TuningScope& s : {other_sha, other_defines}) {
    const TuningAnswer build = lookup_tuning(all, key, s);
    CHECK_FALSE(build.entry);
    CHECK(build.reason.find("another build") != std::string::npos);
    CHECK_FALSE(lookup_nearest(all, key, s).entry);
  }
  // any_build skips the build's check, never the GPU's.
  CHECK(lookup_tuning(all, key, {kHere.gpu_uuid, {"def5678", ""}, true}).entry);
  CHECK_FALSE(lookup_tuning(all, key, {"GPU-bbbb", kHere.build, true}).entry);
}

TEST_CASE("tuning cache: a corrupt or foreign file is reported and read as empty", "[tuning]") {
  TempDir d;
  for (const std::string& text : {std::string("{\"kind\": \"tuning_cache\", \"entr"), std::string("[1, 2]"),
                                 std::string("{\"kind\": \"tuning_cache\", \"schema_version\": 99, \"entries\": []}"),
                                 std::string("{\"kind\": \"sweep\", \"schema_version\": 1, \"entries\": []}"),
                                 std::string("{\"kind\": \"tuning_cache\", \"schema_version\": 1, \"entries\": [{}]}")}) {
    const fs::path file = d.write("bad.tuning.json", text);
    Warnings w;
    CHECK(load_tuning(file, w.log()).empty());
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].find("bad.tuning.json") != std::string::npos);
    // Recording over it is not fatal: the file is rewritten, valid, with the new entry.
    record_tuning(file, entry("softmax", 10, 7168, "registers", 1), w.log());
    Warnings after;
    CHECK(load_tuning(file, after.log()).size() == 1);
    CHECK(after.seen.empty());
  }
  Warnings none;
  CHECK(load_tuning(d.path / "missing.tuning.json", none.log()).empty());
  CHECK(none.seen.empty());
}

TEST_CASE("tuning cache: two concurrent writers leave a valid file holding both", "[tuning]") {
  TempDir d;
  const fs::path file = d.path / "gpu.tuning.json";
  constexpr int kEach = 40;
  auto writer = [&](const std::string& workload) {
    for (int m = 1; m <= kEach; ++m) record_tuning(file, entry(workload, m, 65536, "cluster", 8));
  };
  std::thread a(writer, "layernorm"), b(writer, "rmsnorm");
  a.join();
  b.join();
  Warnings w;
  const auto all = load_tuning(file, w.log());
  CHECK(w.seen.empty());
  CHECK(all.size() == 2 * kEach);
  for (int m = 1; m <= kEach; ++m) {
    CHECK(lookup_tuning(all, {"layernorm", "f32", m, 65536}, kHere).entry);
    CHECK(lookup_tuning(all, {"rmsnorm", "f32", m, 65536}, kHere).entry);
  }
}

TEST_CASE("tuning cache: export and import round trip", "[tuning]") {
  TempDir d;
  const fs::path mine = d.path / "mine.tuning.json", shared = d.path / "shared.json", theirs = d.path / "theirs.json";
  const TuningScope other{"GPU-bbbb", {"fff0000", ""}, false};
  record_tuning(mine, entry("layernorm", 4096, 65536, "cluster", 8));
  record_tuning(mine, entry("softmax", 333, 201088, "split_global", 32, other));
  d.write("shared.json", format_tuning(load_tuning(mine)));
  CHECK(import_tuning(theirs, shared) == 2);
  const auto back = load_tuning(theirs);
  REQUIRE(back.size() == 2);
  const TuningAnswer here = lookup_tuning(back, {"layernorm", "f32", 4096, 65536}, kHere);
  REQUIRE(here.entry);
  CHECK(here.entry->timed.size() == 2);
  CHECK(here.entry->timed[1].schedule == "staged");
  CHECK(here.entry->gpu_name == "NVIDIA H200");
  CHECK(here.entry->utc_time == "2026-12-07T10:00:00Z");
  // The other GPU's entry is kept, and answers on that GPU only.
  CHECK_FALSE(lookup_tuning(back, {"softmax", "f32", 333, 201088}, kHere).entry);
  CHECK(lookup_tuning(back, {"softmax", "f32", 333, 201088}, other).entry);
  // Importing again merges: no duplicates.
  import_tuning(theirs, shared);
  CHECK(load_tuning(theirs).size() == 2);
  CHECK(clear_tuning(theirs) == 2);
  CHECK(load_tuning(theirs).empty());
  // A file that does not read is refused by import (an error the user sees), and the cache is untouched.
  const fs::path bad = d.write("bad.json", "not json");
  CHECK_THROWS(import_tuning(mine, bad));
  CHECK(load_tuning(mine).size() == 2);
}

TEST_CASE("tuning cache: the pick's class follows the schedule's traits", "[tuning]") {
  CHECK(pick_class("staged") == "one-CTA");
  CHECK(pick_class("registers") == "one-CTA");
  CHECK(pick_class("cluster") == "cluster");
  CHECK(pick_class("partial") == "cluster");
  CHECK(pick_class("split_global") == "split");
  CHECK(pick_class("no_such_schedule").empty());
}

TEST_CASE("tuning cache: a neighbouring M answers only when the classes agree", "[tuning]") {
  const std::vector<TuningEntry> agree = {entry("layernorm", 1024, 65536, "cluster", 4),
                                          entry("layernorm", 8192, 65536, "cluster", 8),
                                          entry("layernorm", 4096, 32768, "registers", 1)};
  const TuningAnswer mid = lookup_nearest(agree, {"layernorm", "f32", 6000, 65536}, kHere);
  REQUIRE(mid.entry);
  CHECK_FALSE(mid.exact);
  CHECK(mid.entry->key.m == 8192);  // nearer in log M
  CHECK(lookup_nearest(agree, {"layernorm", "f32", 1500, 65536}, kHere).entry->key.m == 1024);
  CHECK(lookup_nearest(agree, {"layernorm", "f32", 8192, 65536}, kHere).exact);
  // Outside the tuned M's: the two nearest on that side must agree.
  CHECK(lookup_nearest(agree, {"layernorm", "f32", 100000, 65536}, kHere).entry->key.m == 8192);
  // One tuned M of that N: nothing to check the class against.
  CHECK_FALSE(lookup_nearest(agree, {"layernorm", "f32", 2048, 32768}, kHere).entry);
  // Another dtype or N: no neighbours.
  CHECK_FALSE(lookup_nearest(agree, {"layernorm", "bf16", 6000, 65536}, kHere).entry);
  CHECK_FALSE(lookup_nearest(agree, {"layernorm", "f32", 6000, 131072}, kHere).entry);

  const std::vector<TuningEntry> differ = {entry("layernorm", 1024, 65536, "registers", 1),
                                           entry("layernorm", 8192, 65536, "cluster", 8)};
  const TuningAnswer split = lookup_nearest(differ, {"layernorm", "f32", 6000, 65536}, kHere);
  CHECK_FALSE(split.entry);
  CHECK(split.reason.find("the model decides") != std::string::npos);
  // A neighbour of another GPU does not count.
  const std::vector<TuningEntry> foreign = {entry("layernorm", 1024, 65536, "cluster", 4),
                                            entry("layernorm", 8192, 65536, "cluster", 8, {"GPU-bbbb", kHere.build})};
  CHECK_FALSE(lookup_nearest(foreign, {"layernorm", "f32", 6000, 65536}, kHere).entry);
}
