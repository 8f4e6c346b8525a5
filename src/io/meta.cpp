#include "io/meta.hpp"

#include <stdexcept>

// The build defines these (CMakeLists.txt); defaults keep ad-hoc builds compiling.
#ifndef CREDIT_VERSION
#define CREDIT_VERSION "0.0.0"
#endif
#ifndef CREDIT_GIT_SHA
#define CREDIT_GIT_SHA "unknown"
#endif
#ifndef CREDIT_BUILD_DEFINES
#define CREDIT_BUILD_DEFINES ""
#endif

namespace credit {

std::string format_utc_iso8601(std::time_t t) {
  std::tm tm{};
  if (::gmtime_r(&t, &tm) == nullptr) throw std::runtime_error("gmtime_r failed");
  char buf[32];
  const std::size_t len = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (len == 0) throw std::runtime_error("strftime failed");
  return std::string(buf, len);
}

std::string this_build_defines() { return CREDIT_BUILD_DEFINES; }

std::string this_build_label() { return std::string("credit ") + CREDIT_VERSION + " (" + CREDIT_GIT_SHA + ")"; }

Meta make_meta(int argc, const char* const argv[]) {
  Meta meta;
  for (int i = 0; i < argc && argv != nullptr; ++i) meta.argv.emplace_back(argv[i] ? argv[i] : "");
  meta.tool_version = CREDIT_VERSION;
  meta.git_sha = CREDIT_GIT_SHA;
  meta.build_defines = this_build_defines();
  meta.utc_time = format_utc_iso8601(std::time(nullptr));
  return meta;
}

}  // namespace credit
