#include "io/read_file.hpp"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <system_error>

namespace credit {

FileText read_regular_file(const std::filesystem::path& path, const std::string& expected) {
  namespace fs = std::filesystem;
  std::error_code ec;  // a missing path falls through to open's own message
  const fs::file_status st = fs::status(path, ec);  // after symlinks
  if (fs::is_directory(st)) return {"", "is a directory, expected " + expected};
  if (fs::exists(st) && !fs::is_regular_file(st)) return {"", "is not a regular file, expected " + expected};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;  // libstdc++ leaves open(2)'s errno; 0 would print "Success"
    return {"", err ? "cannot open: " + std::generic_category().message(err) : std::string("cannot open")};
  }
  FileText f;
  errno = 0;
  try {  // libstdc++ throws from a failed read(2) (/proc/self/mem) whatever the exception mask
    f.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    in.setstate(std::ios::badbit);
  }
  if (in.bad()) {
    const int err = errno;
    return {"", err ? "read error: " + std::generic_category().message(err) : std::string("read error")};
  }
  return f;
}

}  // namespace credit
