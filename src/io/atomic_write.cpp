#include "io/atomic_write.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
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

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void write_all(int fd, std::string_view contents, const std::filesystem::path& path, const char* step) {
  for (std::size_t done = 0; done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, step, errno);
    }
    done += static_cast<std::size_t>(n);
  }
}

// A device, FIFO or socket: written in place. Renaming a regular file over it would take the name from
// whatever it is (/dev/full turned into a file, a FIFO's reader left waiting); its data goes through it.
void write_through(const std::filesystem::path& path, const struct stat& st, std::string_view contents) {
  Fd out;
  if (S_ISSOCK(st.st_mode)) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string name = path.string();
    if (name.size() >= sizeof(addr.sun_path)) fail(path, "connecting to the socket", ENAMETOOLONG);
    std::memcpy(addr.sun_path, name.c_str(), name.size() + 1);
    out.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (out.fd < 0) fail(path, "creating a socket", errno);
    if (::connect(out.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0)
      fail(path, "connecting to the socket", errno);
  } else {
    // No O_CREAT, no O_TRUNC: the file is there and is not a regular one. A FIFO's open waits for its reader.
    do out.fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    while (out.fd < 0 && errno == EINTR);
    if (out.fd < 0) fail(path, "opening", errno);
  }
  write_all(out.fd, contents, path, "writing");
  const int fd = out.fd;
  out.fd = -1;
  if (::close(fd) != 0) fail(path, "closing", errno);
}

void replace_atomically(const std::filesystem::path& path, const struct stat* existing, std::string_view contents) {
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
  // The file replaced keeps its mode: a results file made private (0600) stays private.
  if (existing && ::fchmod(tmp.fd, existing->st_mode & 07777) != 0) fail(path, "setting the mode of the temporary file", errno);

  write_all(tmp.fd, contents, path, "writing temporary file");
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

}  // namespace

std::filesystem::path output_target(const std::filesystem::path& path) {
  std::filesystem::path p = path;
  for (int links = 0; links <= 40; ++links) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::error_code ec;
    const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
    if (ec) return p;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  throw std::runtime_error("cannot write " + path.string() + ": following its symbolic links: " +
                           std::generic_category().message(ELOOP));
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  if (path.filename().empty()) fail(path, "not a file name", EISDIR);
  const std::filesystem::path target = output_target(path);
  struct stat st;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(path, "is a directory", EISDIR);
    if (S_ISBLK(st.st_mode))
      throw std::runtime_error("cannot write " + path.string() + ": is a block device (a disk): not written over");
    if (!S_ISREG(st.st_mode)) return write_through(target, st, contents);
    return replace_atomically(target, &st, contents);
  }
  replace_atomically(target, nullptr, contents);
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
