#pragma once
// A fresh directory per test under the system's temporary directory, removed with everything in it afterwards.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace credit::test {

struct TempDir {
  std::filesystem::path path;
  // `prefix` names the test file, so a directory left by a crash says whose it is.
  explicit TempDir(const std::string& prefix) {
    static std::atomic<int> counter{0};
    path = std::filesystem::temp_directory_path() /
           (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // `text` written to a file of this directory; its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return path / name;
  }
};

}  // namespace credit::test
