#pragma once
// The library's Log, sent to spdlog (stderr) as every command's own messages are.
#include <spdlog/spdlog.h>

#include "core/log.hpp"

namespace credit::cli {

inline Log spdlog_log() {
  return {[](const std::string& s) { spdlog::info("{}", s); }, [](const std::string& s) { spdlog::warn("{}", s); }};
}

}  // namespace credit::cli
