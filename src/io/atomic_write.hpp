#pragma once
// Whole-file writes that never replace what they should write into, and are all-or-nothing where
// they replace: a run killed mid-write (Ctrl-C, timeout, node loss) leaves either the old file or the
// new one, never a truncated results file. The command line's rule for output paths, and its checks
// before any work, are in cli/output_paths.hpp; this is the writing half of it.
#include <filesystem>
#include <string_view>

namespace credit {

// Writes `contents` to `path`:
// - a symbolic link is followed to its final target (a relative target read against the link's
//   directory), and the target is written as below: the link stays a link;
// - an existing character device, FIFO or socket is opened in place and written through (a FIFO's
//   reader gets the data; a socket is connected to as a stream): never replaced by a regular file;
// - an existing block device is refused (a report written over a disk destroys it);
// - a regular file or a new name: written to a temporary file beside it (same directory, so rename is
//   atomic), fsynced, renamed over it, then the directory fsynced. An existing file keeps its
//   permission bits; a new one gets the usual 0666 & ~umask.
// Creates missing parent directories (the calibration cache's first write relies on it; the command
// line refuses a missing directory before any work). On failure removes the temporary and throws
// std::runtime_error naming the path, the step and strerror.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// The file that writing `path` writes: the final target of a chain of symbolic links, each relative
// target read against its link's directory; `path` itself when it is no link (or does not exist).
// Throws std::runtime_error naming the path for a loop (more than 40 links).
std::filesystem::path output_target(const std::filesystem::path& path);

// Whether two paths name one file: the same file when both exist (links, "./x", "../d/x"), else
// the same absolute, normalised path. Commands use it to refuse an output that is an input.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace credit
