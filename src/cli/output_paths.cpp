#include "cli/output_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"
#include "io/json_records.hpp"

namespace credit::cli {

namespace {

namespace fs = std::filesystem;

// The original stdout once an output took it (prepare_outputs); -1 before.
int stdout_data_fd = -1;

std::string errno_text(int err) { return std::generic_category().message(err); }

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw CommandFailed(option + " " + path + ": " + why, kExitBadInput);
}

const char* special_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Whether a file can be created in `dir`: tried with a file created and removed at once. The mode bits
// say nothing for root (who may write anywhere but /proc, /sys and read-only mounts).
void probe_directory(const std::string& option, const std::string& path, const fs::path& dir) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0;; ++attempt) {
    const fs::path probe = dir / (".credit-probe." + std::to_string(::getpid()) + "." + std::to_string(counter++));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
      return;
    }
    if (errno == EEXIST && attempt < 100) continue;
    refuse(option, path, "no file can be created in " + dir.string() + " (" + errno_text(errno) + ")");
  }
}

// One output against the rule, alone.
void check_one(const OutputPath& out) {
  const std::string& opt = out.option;
  const std::string& path = out.path;
  if (path.empty()) return;
  if (path == "-") {
    if (!out.file_only.empty()) refuse(opt, path, out.file_only + ": give a file path, not - (stdout)");
    return;
  }
  if (fs::path(path).filename().empty()) refuse(opt, path, "names a directory: give a file path");
  fs::path target;
  try {
    target = output_target(path);
  } catch (const std::runtime_error&) {
    refuse(opt, path, "a loop of symbolic links");
  }
  const std::string via = target == fs::path(path) ? "" : " (the target of the link, " + target.string() + ")";
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) refuse(opt, path, "is a directory" + via + ": give a file path");
    if (S_ISBLK(st.st_mode)) refuse(opt, path, "is a block device" + via + ": refusing to write over a disk");
    if (!S_ISREG(st.st_mode)) {
      if (!out.file_only.empty())
        refuse(opt, path, std::string("is ") + special_kind(st.st_mode) + via + ", and " + out.file_only +
                              ": give a regular file");
      if (::access(target.c_str(), W_OK) != 0) refuse(opt, path, "cannot be written (" + errno_text(errno) + ")");
      return;  // written through, in place
    }
    if (::access(target.c_str(), W_OK) != 0)
      refuse(opt, path, "the existing file" + via + " cannot be written (" + errno_text(errno) + ")");
  } else if (errno != ENOENT && errno != ENOTDIR) {
    refuse(opt, path, errno_text(errno));
  }
  // A regular file or a new name: written as a temporary file in its directory, renamed over it.
  const fs::path parent = target.parent_path();
  const fs::path dir = parent.empty() ? fs::path(".") : parent;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) refuse(opt, path, "no directory " + dir.string() + " to write it in");
  probe_directory(opt, path, dir);
}

void write_fd(int fd, std::string_view contents) {
  for (std::size_t done = 0; done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write to stdout: " + errno_text(errno));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

void check_output_path(const char* option, const std::string& path, bool dash_is_stdout) {
  if (path == "-" && !dash_is_stdout) refuse(option, path, "this output goes to a file: give a file path");
  check_one({option, path});
}

void check_outputs(const std::vector<std::string>& inputs, const std::vector<OutputPath>& outputs) {
  for (const auto& out : outputs) check_one(out);
  const OutputPath* dash = nullptr;
  for (const auto& out : outputs) {
    if (out.path != "-") continue;
    if (dash)
      throw CommandFailed(dash->option + " and " + out.option + " both name stdout (-): one output at most goes there",
                          kExitBadInput);
    dash = &out;
  }
  for (const auto& in : inputs)
    for (const auto& out : outputs)
      if (!in.empty() && !out.path.empty() && out.path != "-" && same_file(in, output_target(out.path)))
        throw CommandFailed(out.option + " " + out.path + " is one of the input files" +
                                (in == out.path ? "" : " (" + in + ")") + ": refusing to overwrite it",
                            kExitBadInput);
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& a = outputs[i];
      const auto& b = outputs[j];
      if (!a.path.empty() && !b.path.empty() && a.path != "-" && b.path != "-" &&
          same_file(output_target(a.path), output_target(b.path)))
        throw CommandFailed(a.option + " and " + b.option + " name the same file, " + a.path +
                                (a.path == b.path ? "" : " and " + b.path) + ": one would overwrite the other",
                            kExitBadInput);
    }
}

void prepare_outputs(const std::vector<std::string>& inputs, const std::vector<OutputPath>& outputs) {
  check_outputs(inputs, outputs);
  bool dash = false;
  for (const auto& out : outputs) dash = dash || out.path == "-";
  if (!dash || stdout_data_fd >= 0) return;
  // The data keeps the original stdout; everything else printed there (tables, summaries, a child's
  // output) goes to stderr from here on, so stdout holds that output alone, whoever prints what.
  std::cout.flush();
  std::fflush(stdout);
  const int fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw std::runtime_error("cannot set stdout aside for the data: " + errno_text(errno));
  stdout_data_fd = fd;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // in step with the log lines, which stderr does not buffer
}

bool stdout_is_taken() { return stdout_data_fd >= 0; }

std::FILE* table_stream() { return stdout_is_taken() ? stderr : stdout; }

void write_output(const std::string& path, std::string_view contents) {
  if (path != "-") return write_file_atomically(path, contents);
  if (stdout_data_fd >= 0) return write_fd(stdout_data_fd, contents);
  std::cout.flush();  // not prepared: stdout as it is, after what was printed there
  std::fflush(stdout);
  write_fd(STDOUT_FILENO, contents);
}

void write_results_output(const std::string& path, const ResultsFile& results) {
  if (path != "-") return write_results(path, results);
  write_output(path, to_json_value(results).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

bool rewritable_output(const std::string& path) {
  if (path.empty() || path == "-") return false;
  struct stat st;
  return ::stat(output_target(path).c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

}  // namespace credit::cli
