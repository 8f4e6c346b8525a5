// Output paths: one rule for every output option (see src/cli/output_paths.hpp), and its writing half,
// write_file_atomically (src/io/atomic_write.hpp). Every special file is made in a temporary directory.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "support/temp_dir.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "io/atomic_write.hpp"

namespace fs = std::filesystem;
using credit::write_file_atomically;
using credit::cli::check_outputs;
using credit::cli::CommandFailed;
using credit::cli::OutputPath;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir : credit::test::TempDir {
  TempDir() : credit::test::TempDir("credit-output-paths") {}
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

mode_t kind_of(const fs::path& p) {
  struct stat st;
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

// The message of the exit-2 refusal check_outputs gives, or "" when it accepts.
std::string refusal(const std::vector<std::string>& inputs, const std::vector<OutputPath>& outputs) {
  try {
    check_outputs(inputs, outputs);
  } catch (const CommandFailed& e) {
    CHECK(e.exit_code == credit::cli::kExitBadInput);
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a FIFO given as an output is written through: its reader gets the data, the FIFO stays", "[output_paths]") {
  TempDir dir;
  const fs::path fifo = dir.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // The reader opens first (without waiting for a writer), as `cat fifo > file &` would.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  write_file_atomically(fifo, "workload,m,n\nlars,44,4250\n");
  char buf[256] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf - 1);
  ::close(reader);
  CHECK(std::string(buf, n > 0 ? std::size_t(n) : 0) == "workload,m,n\nlars,44,4250\n");
  CHECK(kind_of(fifo) == S_IFIFO);
  CHECK(names_in(dir.path) == std::set<std::string>{"fifo"});  // no temporary left beside it
}

TEST_CASE("a socket given as an output is connected to and written, never replaced", "[output_paths]") {
  TempDir dir;
  const fs::path sock = dir.path / "sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
  REQUIRE(listener >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(sock.string().size() < sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock.c_str());
  REQUIRE(::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 1) == 0);
  write_file_atomically(sock, "{\"kind\": \"prediction\"}\n");  // small: the kernel buffers it before accept
  const int conn = ::accept(listener, nullptr, nullptr);
  std::string got;
  if (conn >= 0) {
    char buf[256];
    for (ssize_t n; (n = ::read(conn, buf, sizeof buf)) > 0;) got.append(buf, std::size_t(n));
    ::close(conn);
  }
  ::close(listener);
  CHECK(got == "{\"kind\": \"prediction\"}\n");
  CHECK(kind_of(sock) == S_IFSOCK);
}

TEST_CASE("a symbolic link given as an output stays a link; its target is replaced atomically", "[output_paths]") {
  TempDir dir;
  fs::create_directories(dir.path / "real");
  spit(dir.path / "real" / "out.json", "old");
  fs::create_symlink("real/out.json", dir.path / "out.json");  // relative: read against the link's directory
  fs::create_symlink("out.json", dir.path / "chain.json");       // a link to the link

  write_file_atomically(dir.path / "out.json", "new");
  CHECK(kind_of(dir.path / "out.json") == S_IFLNK);
  CHECK(fs::read_symlink(dir.path / "out.json") == "real/out.json");
  CHECK(slurp(dir.path / "real" / "out.json") == "new");

  write_file_atomically(dir.path / "chain.json", "newer");
  CHECK(kind_of(dir.path / "chain.json") == S_IFLNK);
  CHECK(kind_of(dir.path / "out.json") == S_IFLNK);
  CHECK(slurp(dir.path / "real" / "out.json") == "newer");
  // The temporary went in the target's directory and was renamed there: nothing left in either.
  CHECK(names_in(dir.path) == std::set<std::string>{"real", "out.json", "chain.json"});
  CHECK(names_in(dir.path / "real") == std::set<std::string>{"out.json"});

  // A link to a file not there yet: the target is made, the link kept.
  fs::create_symlink("real/later.csv", dir.path / "later.csv");
  write_file_atomically(dir.path / "later.csv", "a,b\n");
  CHECK(kind_of(dir.path / "later.csv") == S_IFLNK);
  CHECK(slurp(dir.path / "real" / "later.csv") == "a,b\n");

  // A loop of links: refused, naming the path.
  fs::create_symlink("loop-b", dir.path / "loop-a");
  fs::create_symlink("loop-a", dir.path / "loop-b");
  std::string loop;
  try {
    write_file_atomically(dir.path / "loop-a", "x");
  } catch (const std::runtime_error& e) {
    loop = e.what();
  }
  CHECK(has(loop, "loop-a"));
}

TEST_CASE("a file replaced by an output keeps its permission bits", "[output_paths]") {
  TempDir dir;
  const fs::path file = dir.path / "private.json";
  spit(file, "old");
  REQUIRE(::chmod(file.c_str(), 0640) == 0);
  const mode_t old_mask = ::umask(022);
  write_file_atomically(file, "new");
  ::umask(old_mask);
  struct stat st;
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(slurp(file) == "new");
}

TEST_CASE("check_outputs: - is stdout for one output at most, and refused where a file is needed", "[output_paths]") {
  CHECK(refusal({}, {{"--json", "-"}, {"--csv", ""}}).empty());
  CHECK(has(refusal({}, {{"--json", "-"}, {"--csv", "-"}}), "--json and --csv both name stdout (-)"));
  CHECK(has(refusal({}, {{"--markdown", "-"}, {"--html", "-"}}), "--markdown and --html both name stdout (-)"));
  const std::string sweep = refusal({}, {{"--json", "-", "a sweep's results file is read back by --resume"}});
  CHECK(has(sweep, "--json -: a sweep's results file is read back by --resume"));
}

TEST_CASE("check_outputs: a missing or unusable directory is refused, and nothing is made", "[output_paths]") {
  TempDir dir;
  const std::string missing = (dir.path / "nonexistent" / "dir" / "x.html").string();
  CHECK(has(refusal({}, {{"--html", missing}}), "--html " + missing + ": no directory"));
  CHECK(!fs::exists(dir.path / "nonexistent"));  // never created

  CHECK(has(refusal({}, {{"--csv", dir.path.string()}}), ": is a directory"));
  CHECK(has(refusal({}, {{"--csv", (dir.path / "sub/").string()}}), "names a directory"));
  spit(dir.path / "plain", "x");
  CHECK(has(refusal({}, {{"--json", (dir.path / "plain" / "x.json").string()}}), "no directory"));

  // A directory no file can be created in: tried, not guessed from its mode (root may write anywhere but /proc).
  CHECK(has(refusal({}, {{"--csv", "/proc/nope.csv"}}), "--csv /proc/nope.csv: no file can be created in /proc"));
  if (::geteuid() != 0) {  // the mode bits bind only others than root
    fs::create_directories(dir.path / "locked");
    ::chmod((dir.path / "locked").c_str(), 0500);
    CHECK(has(refusal({}, {{"--csv", (dir.path / "locked" / "x.csv").string()}}), "no file can be created in"));
    spit(dir.path / "readonly.csv", "x");
    ::chmod((dir.path / "readonly.csv").c_str(), 0400);
    CHECK(has(refusal({}, {{"--csv", (dir.path / "readonly.csv").string()}}), "cannot be written"));
    ::chmod((dir.path / "locked").c_str(), 0700);
  }

  // Accepted: a new name in a directory that exists; the check leaves nothing behind.
  CHECK(refusal({}, {{"--csv", (dir.path / "new.csv").string()}}).empty());
  CHECK(names_in(dir.path) == (::geteuid() != 0 ? std::set<std::string>{"plain", "locked", "readonly.csv"}
                                                : std::set<std::string>{"plain"}));
}

TEST_CASE("check_outputs: special files are written through, or refused where a file of its own is needed",
          "[output_paths]") {
  TempDir dir;
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal({}, {{"--csv", fifo}}).empty());
  const std::string why = refusal({}, {{"--json", fifo, "a sweep's results file is read back by --resume"}});
  CHECK(has(why, "--json " + fifo + ": is a FIFO, and a sweep's results file is read back by --resume"));
  CHECK(credit::cli::rewritable_output((dir.path / "new.json").string()));
  CHECK(!credit::cli::rewritable_output(fifo));
  CHECK(!credit::cli::rewritable_output("-"));
  CHECK(!credit::cli::rewritable_output(""));

  fs::create_symlink("a", dir.path / "b");
  fs::create_symlink("b", dir.path / "a");
  CHECK(has(refusal({}, {{"--json", (dir.path / "a").string()}}), "a loop of symbolic links"));
}

TEST_CASE("check_outputs: an output that is an input, or another output, by any spelling, is refused",
          "[output_paths]") {
  TempDir dir;
  const std::string in = (dir.path / "sweep.json").string();
  spit(in, "{}");
  fs::create_symlink("sweep.json", dir.path / "link.json");
  const std::string link = (dir.path / "link.json").string();
  CHECK(has(refusal({in}, {{"--csv", in}}), "--csv " + in + " is one of the input files: refusing to overwrite it"));
  CHECK(has(refusal({in}, {{"--json", link}}), "--json " + link + " is one of the input files (" + in + ")"));
  const std::string other = (dir.path / "." / "out.md").string();
  const std::string same = (dir.path / "out.md").string();
  CHECK(has(refusal({in}, {{"--markdown", other}, {"--html", same}}), "--markdown and --html name the same file"));
  fs::create_symlink("out.md", dir.path / "out-link.md");  // a dangling link and the file it will make
  CHECK(has(refusal({}, {{"--markdown", same}, {"--html", (dir.path / "out-link.md").string()}}),
            "name the same file"));
  CHECK(refusal({in, ""}, {{"--markdown", same}, {"--html", ""}, {"--csv", "-"}}).empty());
}
