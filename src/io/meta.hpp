#pragma once
// Provenance recorded in every results file: what was run, by which build, when.
#include <ctime>
#include <string>

#include "core/results_meta.hpp"

namespace credit {

// argv as given, tool_version = CREDIT_VERSION ("0.0.0" if the build did not define it),
// git_sha = CREDIT_GIT_SHA ("unknown"), build_defines = CREDIT_BUILD_DEFINES (the A/B definitions
// CMakeLists.txt found in the compile flags; ""), utc_time = now. A null argv entry is recorded as "".
Meta make_meta(int argc, const char* const argv[]);

// The A/B definitions this build was compiled with (Meta::build_defines of what it writes).
std::string this_build_defines();

// "credit VERSION (SHA)": what --version and the report's footer print. The sha is defined for
// src/io/meta.cpp alone, so a new commit recompiles this file and not every kernel.
std::string this_build_label();

// How a build's definitions read in messages: "the defaults" for none, else the definitions themselves.
inline std::string build_defines_label(const std::string& defines) {
  return defines.empty() ? "the defaults" : defines;
}

// "YYYY-MM-DDTHH:MM:SSZ" in UTC; thread-safe (gmtime_r).
std::string format_utc_iso8601(std::time_t t);

}  // namespace credit
