#pragma once
// --csv PATH|- for bench, run-sweep, predict, tune and fit-model. The path follows the output rule of
// cli/output_paths.hpp (checked there, with the command's other outputs, before any work): "-" writes
// the CSV to stdout, and the command's human-readable table then goes to stderr, so that stdout holds
// the CSV alone; a device or FIFO is written through; a file atomically.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <utility>

#include "cli/output_paths.hpp"

namespace credit::cli {

inline CLI::Option* add_csv_option(CLI::App* cmd, std::string& target) {
  return cmd->add_option("--csv", target, "also write the results as CSV (header line, one row each) to this "
                                          "path, or - for stdout (the table then goes to stderr)");
}

class CsvOutput {
 public:
  // Checked again alone (the command's prepare_outputs has checked it beside its inputs and other outputs).
  explicit CsvOutput(std::string path) : path_(std::move(path)) { check_output_path("--csv", path_, true); }
  bool to_stdout() const { return path_ == "-"; }
  std::FILE* table_stream() const { return to_stdout() ? stderr : ::credit::cli::table_stream(); }
  void write(const std::string& csv) const {
    if (!path_.empty()) write_output(path_, csv);
  }

 private:
  std::string path_;
};

}  // namespace credit::cli
