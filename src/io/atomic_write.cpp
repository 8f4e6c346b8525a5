#include "io/atomic_write.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

namespace credit {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* step, int err) {
  // generic_category().message is strerror's text without strerror's shared buffer.
  throw std::runtime_error("cannot write " + path.string() + ": " + step + ": " +
                           std::generic_category().message(err));
}

// Closes the descriptor and removes the temporary unless the rename succeeded.
struct TempFile {
  int fd = -1;
  std::filesystem::path path;
  bool committed = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!committed && !path.empty()) ::unlink(path.c_str());
  }
};

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  if (path.filename().empty()) fail(path, "not a file name", EISDIR);
  const auto dir = path.parent_path();
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) fail(path, "creating parent directories", ec.value());
  }

  // O_EXCL with our own unique name rather than mkstemp: mkstemp forces mode 0600, while
  // open(..., 0666) lets the umask give results files their normal permissions.
  static std::atomic<unsigned> counter{0};
  TempFile tmp;
  for (int attempt = 0; tmp.fd < 0; ++attempt) {
    auto name = path;
    name += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    tmp.fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (tmp.fd >= 0) {
      tmp.path = name;
    } else if (errno != EEXIST || attempt > 100) {  // EEXIST: a stale temp from a dead run
      fail(path, "creating temporary file", errno);
    }
  }

  for (std::size_t done = 0; done < contents.size();) {
    const ssize_t n = ::write(tmp.fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "writing temporary file", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(tmp.fd) != 0) fail(path, "fsync of temporary file", errno);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) fail(path, "closing temporary file", errno);
  if (::rename(tmp.path.c_str(), path.c_str()) != 0) fail(path, "renaming temporary file", errno);
  tmp.committed = true;

  // Make the rename itself durable; best effort, the data is already in place.
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  namespace fs = std::filesystem;
  std::error_code ea, eb;
  if (fs::exists(a, ea) && fs::exists(b, eb)) {
    std::error_code ec;
    const bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  const auto normal = [](const fs::path& p) {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    return ec ? fs::absolute(p, ec).lexically_normal() : c;
  };
  return normal(a) == normal(b);
}

}  // namespace credit
