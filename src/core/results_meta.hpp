#pragma once
// Provenance recorded in every results file: the command line, the build and the time (io/meta.hpp makes it).
#include <string>
#include <vector>

namespace credit {

struct Meta {
  std::vector<std::string> argv;
  std::string tool_version;
  std::string git_sha;
  std::string utc_time;  // ISO 8601, e.g. 2026-11-29T11:02:03Z
  // The A/B definitions the build was compiled with ("CREDIT_CLUSTER_POLICY=2", several space-separated; empty: the
  // defaults; files written before it was recorded read as empty too, see build_defines_recorded).
  std::string build_defines;
  bool build_defines_recorded = true;
};

}  // namespace credit
