#pragma once
// --csv PATH|- for bench, run-sweep and predict. A path is written atomically
// (io/atomic_write.hpp) when the command has its rows; "-" writes the CSV to stdout, and the
// command's human-readable table then goes to stderr, so that stdout holds the CSV alone.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"

namespace credit::cli {

inline CLI::Option* add_csv_option(CLI::App* cmd, std::string& target) {
  return cmd->add_option("--csv", target, "also write the results as CSV (header line, one row each) to this "
                                          "path, or - for stdout (the table then goes to stderr)");
}

class CsvOutput {
 public:
  // Refuses a directory before anything is measured.
  explicit CsvOutput(std::string path) : path_(std::move(path)) {
    std::error_code ec;
    if (!path_.empty() && path_ != "-" && std::filesystem::is_directory(path_, ec))
      throw CommandFailed("--csv " + path_ + ": is a directory", kExitBadInput);
  }
  bool to_stdout() const { return path_ == "-"; }
  std::FILE* table_stream() const { return to_stdout() ? stderr : stdout; }
  void write(const std::string& csv) const {
    if (path_.empty()) return;
    if (to_stdout()) {
      std::fwrite(csv.data(), 1, csv.size(), stdout);
      std::fflush(stdout);
    } else {
      write_file_atomically(path_, csv);
    }
  }

 private:
  std::string path_;
};

}  // namespace credit::cli
