#pragma once
// Config files written for a test, and the error read_sweep_config gives for one.
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "sweep/sweep_config.hpp"

namespace credit::test {

inline std::filesystem::path write_temp(const std::string& dir, const std::string& name, const std::string& text) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / dir;
  std::filesystem::create_directories(d);
  const std::filesystem::path p = d / name;
  std::ofstream(p) << text;
  return p;
}

// The message of the std::invalid_argument the file gives, or "" when it reads.
inline std::string config_error(const std::filesystem::path& p) {
  try {
    read_sweep_config(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace credit::test
