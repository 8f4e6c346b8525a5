#pragma once
// The whole of an input file, for the readers of results files and sweep configs: refused, with the
// reason, where reading would fail or never end (a directory, /dev/zero, a FIFO, a failed read(2)).
// A gzip stream (recognised by its magic bytes, not its name) is inflated: results are committed gzipped.
#include <filesystem>
#include <string>

namespace credit {

struct FileText {
  std::string text;
  std::string error;  // empty when the file was read; else why not, e.g. "cannot open: No such file or directory"
};

// `expected` names what the file should be, for the refusals of a directory, a device or a broken gzip
// stream ("is a directory, expected a sweep config"); callers print `error` after "FILE: ".
FileText read_regular_file(const std::filesystem::path& path, const std::string& expected);

}  // namespace credit
