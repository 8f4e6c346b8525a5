#pragma once
// The per-device tuning cache: `credit tune` records each measured pick (the model's shortlist timed at
// one shape) so that `credit predict` answers from a measurement where there is one. One JSON file per
// GPU beside the calibration cache (calibration_cache_dir(), "<uuid>.tuning.json"), versioned, written
// atomically under an advisory lock. An entry answers only on the GPU and build that measured it: another
// GPU's silicon and another build's kernels may rank the candidates differently. A file that does not
// read is reported through the caller's log and treated as empty: the cache never stops a command.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/log.hpp"

namespace credit {

inline constexpr int kTuningSchemaVersion = 1;

// The shape an entry answers for: the workload as declared (no "@bf16" suffix), its element type
// ("f32", "bf16", "f16"), rows M and row length N.
struct TuningKey {
  std::string workload, dtype;
  long long m = 0, n = 0;
  bool operator==(const TuningKey&) const = default;
};

// Which build measured: its git sha and A/B definitions (io/meta.hpp records the same in results files).
struct BuildIdentity {
  std::string git_sha, build_defines;
  bool operator==(const BuildIdentity&) const = default;
};
BuildIdentity this_build_identity();

struct TunedCandidate {
  std::string schedule;
  int p = 1;
  double ms = 0;  // median kernel time at the shape
};

struct TuningEntry {
  TuningKey key;
  std::vector<TunedCandidate> timed;  // the shortlist's candidates that passed their check, as timed
  TunedCandidate pick;                // the fastest of them
  std::string gpu_name, gpu_uuid;
  BuildIdentity build;
  std::string utc_time;  // when it was measured, ISO 8601
};

// Where an entry may answer: this GPU (its UUID) and this build. any_build skips the build check (a file
// given explicitly whose build is known to match, e.g. a test fixture); the GPU always has to match.
struct TuningScope {
  std::string gpu_uuid;
  BuildIdentity build;
  bool any_build = false;
};

// calibration_cache_dir() / "<uuid>.tuning.json" (the UUID's characters outside [A-Za-z0-9_-] as '_').
// Throws std::invalid_argument for an empty UUID, std::runtime_error when no cache directory is set.
std::filesystem::path tuning_cache_path(const std::string& gpu_uuid);

// The entries of a cache file; none for a missing file. A file that does not read (not JSON, another
// schema_version, a malformed entry) is reported with log.warn and read as none. Never throws.
std::vector<TuningEntry> load_tuning(const std::filesystem::path& file, const Log& log = {});

// The file's text: {"kind": "tuning_cache", "schema_version": 1, "entries": [...]}.
std::string format_tuning(const std::vector<TuningEntry>& entries);

// Adds `entry` to the file under its lock: re-reads it, replaces an entry of the same key, GPU and build,
// writes it atomically. Concurrent writers each leave their entry. Throws std::runtime_error when the
// lock or the write fails (the caller decides whether that matters; `credit tune` only warns).
void record_tuning(const std::filesystem::path& file, const TuningEntry& entry, const Log& log = {});
// Merges the entries of `from` into `file` as record_tuning does; returns how many it read.
// Entries of another GPU or build are kept (a shared file) but answer only where scope matches.
std::size_t import_tuning(const std::filesystem::path& file, const std::filesystem::path& from, const Log& log = {});
// Leaves `file` holding no entries (under its lock); returns how many it held.
std::size_t clear_tuning(const std::filesystem::path& file, const Log& log = {});

struct TuningAnswer {
  std::optional<TuningEntry> entry;  // the measured pick to use; none: use the model
  bool exact = false;                // measured at this very M (else at a neighbouring M, see below)
  std::string reason;                // why none, or which neighbours answered
};

// The entry of exactly this key within scope, or why none (no entry; measured on another GPU; by
// another build).
TuningAnswer lookup_tuning(const std::vector<TuningEntry>& entries, const TuningKey& key, const TuningScope& scope);

// The pick's class: "one-CTA", "cluster" or "split" (over global memory), from the schedule's traits;
// "" for a schedule this build does not know.
std::string pick_class(const std::string& schedule);

// lookup_tuning; when M was not tuned, the entries of the same workload, dtype and N within scope are
// the neighbours: the tuned M's just below and just above M, or the two nearest on one side when M lies
// outside them. When both neighbours' picks are of one class the nearer one (in log M) answers; when
// they differ, or there is one tuned M only, none does (the class can change between them).
TuningAnswer lookup_nearest(const std::vector<TuningEntry>& entries, const TuningKey& key, const TuningScope& scope);

}  // namespace credit
