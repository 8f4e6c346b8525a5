#pragma once
// Whole-file writes that are all-or-nothing: a run killed mid-write (Ctrl-C, timeout, node
// loss) leaves either the old file or the new one, never a truncated results file.
#include <filesystem>
#include <string_view>

namespace credit {

// Writes `contents` to a temporary file beside `path` (same directory, so rename is atomic),
// fsyncs it, renames it over `path`, then fsyncs the directory. Creates missing parent
// directories. The new file gets the usual 0666 & ~umask mode. On failure removes the
// temporary and throws std::runtime_error naming the path, the step and strerror.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Whether two paths name one file: the same file when both exist (links, "./x", "../d/x"), else
// the same absolute, normalised path. Commands use it to refuse an output that is an input.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace credit
