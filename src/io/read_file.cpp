#include "io/read_file.hpp"

#include <cerrno>
#include <fstream>
#include <iterator>
#include <system_error>

#include <zlib.h>

namespace credit {
namespace {

// gzip's magic bytes (RFC 1952): results files are committed gzipped, so a reader takes either form.
bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// The inflated text of a gzip stream (several members concatenated, as `cat a.gz b.gz` makes, inflate one after
// another); empty `error` on success.
FileText gunzip(const std::string& bytes, const std::string& expected) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return {"", "cannot start the gzip decoder"};  // 15 + 32: gzip or zlib header
  FileText f;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END || z.avail_in > 0) {
    if (rc == Z_STREAM_END && inflateReset(&z) != Z_OK) break;  // the next member
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    f.text.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {  // input used up mid-stream
      rc = Z_DATA_ERROR;
      break;
    }
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return {"", "is gzipped but truncated or corrupt, expected " + expected};
  return f;
}

}  // namespace

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
  if (is_gzip(f.text)) return gunzip(f.text, expected);  // by content, whatever the name
  return f;
}

}  // namespace credit
