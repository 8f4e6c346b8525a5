#include "tuning/tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "calibration/calibration_cache.hpp"
#include "io/atomic_write.hpp"
#include "io/meta.hpp"
#include "io/read_file.hpp"
#include "credit/schedule.hpp"

namespace credit {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The file's text, or std::runtime_error with why it does not read.
std::string read_text_file(const fs::path& file) {
  FileText t = read_regular_file(file, "a tuning cache");
  if (!t.error.empty()) throw std::runtime_error(file.string() + ": " + t.error);
  return std::move(t.text);
}

json candidate_json(const TunedCandidate& c) { return {{"schedule", c.schedule}, {"p", c.p}, {"ms", c.ms}}; }

TunedCandidate candidate_of(const json& j) {
  return {j.at("schedule").get<std::string>(), j.at("p").get<int>(), j.at("ms").get<double>()};
}

json entry_json(const TuningEntry& e) {
  json timed = json::array();
  for (const auto& c : e.timed) timed.push_back(candidate_json(c));
  return {{"workload", e.key.workload}, {"dtype", e.key.dtype}, {"m", e.key.m}, {"n", e.key.n},
          {"pick", candidate_json(e.pick)}, {"timed", timed},
          {"gpu", {{"name", e.gpu_name}, {"uuid", e.gpu_uuid}}},
          {"build", {{"git_sha", e.build.git_sha}, {"build_defines", e.build.build_defines}}},
          {"utc_time", e.utc_time}};
}

TuningEntry entry_of(const json& j) {
  TuningEntry e;
  e.key = {j.at("workload").get<std::string>(), j.at("dtype").get<std::string>(), j.at("m").get<long long>(),
           j.at("n").get<long long>()};
  e.pick = candidate_of(j.at("pick"));
  for (const auto& c : j.at("timed")) e.timed.push_back(candidate_of(c));
  e.gpu_name = j.at("gpu").at("name").get<std::string>();
  e.gpu_uuid = j.at("gpu").at("uuid").get<std::string>();
  e.build = {j.at("build").at("git_sha").get<std::string>(), j.at("build").at("build_defines").get<std::string>()};
  e.utc_time = j.at("utc_time").get<std::string>();
  if (e.key.m < 1 || e.key.n < 1) throw std::invalid_argument("an entry's m and n must be at least 1");
  return e;
}

std::vector<TuningEntry> parse_tuning(const std::string& text) {
  const json doc = json::parse(text);
  if (doc.at("kind").get<std::string>() != "tuning_cache")
    throw std::invalid_argument("kind is \"" + doc.at("kind").get<std::string>() + "\", expected \"tuning_cache\"");
  const int version = doc.at("schema_version").get<int>();
  if (version != kTuningSchemaVersion)
    throw std::invalid_argument("schema_version " + std::to_string(version) + ", this build reads " +
                                std::to_string(kTuningSchemaVersion));
  std::vector<TuningEntry> out;
  for (const auto& e : doc.at("entries")) out.push_back(entry_of(e));
  return out;
}

// The same slot of the cache: one shape measured on one GPU by one build.
bool same_slot(const TuningEntry& a, const TuningEntry& b) {
  return a.key == b.key && a.gpu_uuid == b.gpu_uuid && a.build == b.build;
}

void merge(std::vector<TuningEntry>& into, const TuningEntry& e) {
  const auto it = std::find_if(into.begin(), into.end(), [&](const TuningEntry& x) { return same_slot(x, e); });
  if (it != into.end()) *it = e;
  else into.push_back(e);
}

// An exclusive flock on "<file>.lock", held for its lifetime: the read-merge-write of concurrent writers
// (threads or processes) happens one at a time, so none loses another's entry.
class FileLock {
 public:
  explicit FileLock(const fs::path& file) {
    const fs::path lock = file.string() + ".lock";
    if (lock.has_parent_path()) fs::create_directories(lock.parent_path());
    fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) throw std::runtime_error(lock.string() + ": open: " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        const int err = errno;
        ::close(fd_);
        throw std::runtime_error(lock.string() + ": flock: " + std::strerror(err));
      }
  }
  ~FileLock() { ::close(fd_); }  // closing releases the lock
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

bool in_scope(const TuningEntry& e, const TuningScope& s) {
  return e.gpu_uuid == s.gpu_uuid && (s.any_build || e.build == s.build);
}

std::string key_label(const TuningKey& k) {
  return k.workload + " " + k.dtype + " " + std::to_string(k.m) + "x" + std::to_string(k.n);
}

}  // namespace

BuildIdentity this_build_identity() { return {make_meta(0, nullptr).git_sha, this_build_defines()}; }

fs::path tuning_cache_path(const std::string& gpu_uuid) {
  if (gpu_uuid.empty()) throw std::invalid_argument("the device reports no UUID to key its tuning cache by");
  std::string file = gpu_uuid;
  for (char& ch : file) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                    ch == '_';
    if (!ok) ch = '_';
  }
  return calibration_cache_dir() / (file + ".tuning.json");
}

std::vector<TuningEntry> load_tuning(const fs::path& file, const Log& log) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  try {
    return parse_tuning(read_text_file(file));
  } catch (const std::exception& e) {
    log.warn("tuning cache {} does not read, ignored (its entries are not used): {}", file.string(), e.what());
    return {};
  }
}

std::string format_tuning(const std::vector<TuningEntry>& entries) {
  json list = json::array();
  for (const auto& e : entries) list.push_back(entry_json(e));
  const json doc = {{"kind", "tuning_cache"}, {"schema_version", kTuningSchemaVersion}, {"entries", list}};
  return doc.dump(1) + "\n";
}

void record_tuning(const fs::path& file, const TuningEntry& entry, const Log& log) {
  const FileLock lock(file);
  std::vector<TuningEntry> entries = load_tuning(file, log);
  merge(entries, entry);
  write_file_atomically(file, format_tuning(entries));
}

std::size_t import_tuning(const fs::path& file, const fs::path& from, const Log& log) {
  const std::vector<TuningEntry> in = parse_tuning(read_text_file(from));  // a bad import is an error, not a warning
  const FileLock lock(file);
  std::vector<TuningEntry> entries = load_tuning(file, log);
  for (const auto& e : in) merge(entries, e);
  write_file_atomically(file, format_tuning(entries));
  return in.size();
}

std::size_t clear_tuning(const fs::path& file, const Log& log) {
  const FileLock lock(file);
  const std::size_t held = load_tuning(file, log).size();
  write_file_atomically(file, format_tuning({}));
  return held;
}

TuningAnswer lookup_tuning(const std::vector<TuningEntry>& entries, const TuningKey& key, const TuningScope& scope) {
  const TuningEntry* other = nullptr;
  for (const auto& e : entries) {
    if (!(e.key == key)) continue;
    if (in_scope(e, scope)) return {e, true, ""};
    other = &e;
  }
  if (!other) return {std::nullopt, false, "no tuned entry for " + key_label(key)};
  if (other->gpu_uuid != scope.gpu_uuid)
    return {std::nullopt, false, "the tuned entry for " + key_label(key) + " was measured on another GPU, " +
                                     other->gpu_name + " (" + other->gpu_uuid + "), not on " + scope.gpu_uuid + ": not used"};
  return {std::nullopt, false, "the tuned entry for " + key_label(key) + " was measured by another build (" +
                                   other->build.git_sha + ", " + build_defines_label(other->build.build_defines) +
                                   "), this is " + scope.build.git_sha + ", " +
                                   build_defines_label(scope.build.build_defines) + ": not used (tune again)"};
}

std::string pick_class(const std::string& schedule) {
  const ScheduleTraits* t = find_schedule(schedule);
  if (!t) return "";
  switch (t->split) {
    case Split::OneCta: return "one-CTA";
    case Split::Cluster:
    case Split::LargestCluster: return "cluster";
    case Split::Global:
    case Split::Spread: return "split";
  }
  return "";
}

namespace {

// The tuned M's of the key's workload, dtype and N within scope, ascending (one entry each).
std::vector<const TuningEntry*> tuned_rows(const std::vector<TuningEntry>& entries, const TuningKey& key,
                                           const TuningScope& scope) {
  std::vector<const TuningEntry*> rows;
  for (const auto& e : entries)
    if (e.key.workload == key.workload && e.key.dtype == key.dtype && e.key.n == key.n && in_scope(e, scope) &&
        std::none_of(rows.begin(), rows.end(), [&](const TuningEntry* r) { return r->key.m == e.key.m; }))
      rows.push_back(&e);
  std::sort(rows.begin(), rows.end(), [](const TuningEntry* a, const TuningEntry* b) { return a->key.m < b->key.m; });
  return rows;
}

// The two neighbours of m among `rows` (ascending, m not among them): the bracketing pair, else the two
// nearest on m's side; fewer than two rows: none.
std::optional<std::pair<const TuningEntry*, const TuningEntry*>> neighbours(const std::vector<const TuningEntry*>& rows,
                                                                            long long m) {
  if (rows.size() < 2) return std::nullopt;
  const auto above = std::find_if(rows.begin(), rows.end(), [&](const TuningEntry* r) { return r->key.m > m; });
  if (above == rows.begin()) return std::pair{rows[0], rows[1]};
  if (above == rows.end()) return std::pair{rows[rows.size() - 1], rows[rows.size() - 2]};
  return std::pair{*(above - 1), *above};
}

}  // namespace

TuningAnswer lookup_nearest(const std::vector<TuningEntry>& entries, const TuningKey& key, const TuningScope& scope) {
  TuningAnswer exact = lookup_tuning(entries, key, scope);
  if (exact.entry) return exact;
  const auto pair = neighbours(tuned_rows(entries, key, scope), key.m);
  if (!pair) return exact;
  const auto [a, b] = *pair;
  const std::string ca = pick_class(a->pick.schedule), cb = pick_class(b->pick.schedule);
  const std::string ms = "M = " + std::to_string(a->key.m) + " and " + std::to_string(b->key.m);
  if (ca.empty() || ca != cb)
    return {std::nullopt, false, exact.reason + "; the tuned neighbours " + ms + " pick " + (ca.empty() ? "?" : ca) +
                                     " and " + (cb.empty() ? "?" : cb) + ": the model decides"};
  const double la = std::abs(std::log(double(a->key.m) / double(key.m)));
  const double lb = std::abs(std::log(double(b->key.m) / double(key.m)));
  return {la <= lb ? *a : *b, false, "the tuned neighbours " + ms + " both pick " + ca};
}

}  // namespace credit
