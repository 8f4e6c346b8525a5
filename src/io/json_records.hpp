#pragma once
// JSON form of a results file (core/results_file.hpp), its reader and writer. The records inside have their
// readers and writers beside it: io/json_calibration.hpp, io/json_prediction.hpp, io/json_sweep_point.hpp, and
// io/json_node.hpp for the pieces they share.
//
// Layout (keys are the struct member names; nlohmann::json prints keys sorted):
//  - numbers are JSON numbers, never strings; a non-finite double (NaN, inf) is written as null
//    and null reads back as NaN, since JSON has no NaN;
//  - Stat: {"median": d, "min": d, "max": d, "runs": i};
//  - a std::map<int, Stat> keyed by P is an array sorted by P of Stats with the key inlined:
//    [{"p": 2, "median": ..., "min": ..., "max": ..., "runs": ...}, ...] (arrays keep numeric
//    order and read straight into a table in Python); max_active_clusters is
//    [{"p": 2, "clusters": i}, ...]; a P repeated in one array is an error on reading;
//  - Disposition: "passed", "incorrect", "failed", "skipped", "not_supported";
//  - optional values (ResultsFile::calibration, Prediction::best_p) are written as null and
//    read back as empty when null or absent; every other field is required;
//  - SweepPoint::dram (measured DRAM traffic) is {"read_bytes", "write_bytes", "kernels"} plus,
//    for readers of the file, the per-element figures and the >5% flag (core/dram_traffic.hpp),
//    which reading derives again rather than trusts;
//  - unknown keys are ignored, so newer writers stay readable while schema_version matches.
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/results_file.hpp"
#include "core/results_meta.hpp"
#include "io/results_file_error.hpp"

namespace credit {

// Writers, found by nlohmann::json through ADL (`nlohmann::json j = results;`); the records inside have theirs in
// io/json_calibration.hpp, io/json_prediction.hpp, io/json_sweep_point.hpp and io/json_node.hpp.
void to_json(nlohmann::json& j, const Meta& m);
void to_json(nlohmann::json& j, const ResultsFile& r);

nlohmann::json to_json_value(const ResultsFile& results);

// Checked reader: no from_json on purpose, so every read goes through the checks that name
// the field. `source` is the file name used in error messages. Checks schema_version first,
// then kind ("calibration", "prediction" or "sweep"), then every field. Throws ResultsFileError.
ResultsFile results_from_json(const nlohmann::json& j, const std::string& source);

// Pretty-printed JSON plus newline, written with write_file_atomically. Throws
// std::invalid_argument for an unknown kind (the file would not read back), std::runtime_error
// when writing fails.
void write_results(const std::filesystem::path& path, const ResultsFile& results);

// Throws ResultsFileError naming the file when it is not a regular file (a device, a FIFO), cannot
// be opened or read, is gzipped but truncated, is not JSON, is other JSON (a sweep config, say
// what it is), or fails a check (a calibration's device.sm_count, smem_per_block_optin,
// smem_per_sm and l2_bytes must be positive). Gzipped or not, by content (io/read_file.hpp).
ResultsFile read_results(const std::filesystem::path& path);

// The kind as readers tell results files apart: the file's "kind" ("calibration", "prediction",
// "sweep", "ladder"), or "baselines" for a sweep whose points are all the peers'
// (scripts/torch_baselines.py: torch_eager, torch_compile, triton), a torch-baselines file.
std::string results_kind(const ResultsFile& r);

// In words, for messages: "a calibration file", "a prediction file", "a sweep results file",
// "a ladder results file", "a torch-baselines file".
std::string describe_results_kind(const ResultsFile& r);
std::string describe_kind(std::string_view kind);  // the same from one of the kind names above

// Throws ResultsFileError "FILE: is a sweep results file, expected a calibration file" unless
// results_kind(r) is one of `kinds` ("sweep" does not take "baselines": name both to take either).
// `expected` replaces the text after "expected " (default: the kinds in words).
void check_results_kind(const ResultsFile& r, const std::string& file, std::initializer_list<std::string_view> kinds,
                        std::string_view expected = {});

// read_results with the kind check made before any field is checked, so that a file of another kind
// is refused by what it is, not by the first field its kind lacks.
ResultsFile read_results(const std::filesystem::path& path, std::initializer_list<std::string_view> kinds,
                         std::string_view expected = {});

}  // namespace credit
