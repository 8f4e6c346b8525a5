#include "traffic/profile_traffic.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "credit/schedule.hpp"


extern char** environ;

namespace credit::traffic {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The last `lines` lines of s.
std::string tail(const std::string& s, int lines = 15) {
  std::size_t at = s.size();
  if (at && s[at - 1] == '\n') --at;
  for (int n = 0; n < lines && at > 0; ++n) {
    const std::size_t nl = s.rfind('\n', at - 1);
    at = nl == std::string::npos ? 0 : nl;
  }
  return s.substr(at == 0 ? 0 : at + 1);
}

// Runs argv with stdout and stderr into `output`; the exit status, or 128 + the signal.
int run_process(const std::vector<std::string>& argv, const fs::path& output) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) throw ProfilerUnavailable(fmt::format("cannot run {}: {}", argv[0], std::strerror(err)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw ProfilerError(fmt::format("waiting for {}: {}", argv[0], std::strerror(errno)));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A fresh directory for one run's log, manifest and output; kept when the run fails.
fs::path scratch_directory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = (fs::path(tmp && *tmp ? tmp : "/tmp") / "credit-traffic-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw ProfilerError(fmt::format("mkdtemp {}: {}", tmpl, std::strerror(errno)));
  return tmpl;
}

}  // namespace

std::string find_ncu() {
  if (const char* env = std::getenv("CREDIT_NCU"); env && *env) {
    if (!executable(env)) throw ProfilerUnavailable(fmt::format("CREDIT_NCU={}: not an executable file", env));
    return env;
  }
  std::vector<fs::path> tried;
  if (const char* path = std::getenv("PATH"))
    for (std::string_view rest = path; !rest.empty();) {
      const std::size_t colon = rest.find(':');
      const std::string_view dir = rest.substr(0, colon);
      if (!dir.empty()) tried.push_back(fs::path(dir) / "ncu");
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) tried.push_back(fs::path(v) / "bin" / "ncu");
  tried.push_back("/usr/local/cuda/bin/ncu");
  for (const auto& p : tried)
    if (executable(p)) return p.string();
  throw ProfilerUnavailable(
      "--traffic needs Nsight Compute (ncu), which was found neither on PATH nor in $CUDA_HOME/bin, $CUDA_PATH/bin "
      "or /usr/local/cuda/bin (CUDA 12 and 13 install it there; CREDIT_NCU=PATH names it)");
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw ProfilerError("cannot find this program's path (/proc/self/exe): " + ec.message());
  return p.string();
}

std::vector<std::string> ncu_command(const ProfilerSetup& s, const std::string& log_path,
                                     const std::string& manifest_path, const std::vector<LaunchTarget>& targets) {
  std::vector<std::string> c{s.ncu,
                             "--metrics", std::string(kReadMetric) + "," + kWriteMetric,
                             "--cache-control", "none",
                             "--profile-from-start", "off",
                             "--csv", "--page", "raw", "--print-units", "base",
                             "--log-file", log_path,
                             s.self, "--device", std::to_string(s.device), "--log-level", "warn",
                             "profile-launches", "--seed", std::to_string(s.seed), "--manifest", manifest_path,
                             "--"};  // the targets are positionals: the copy target's "-:..." is no option
  for (const auto& t : targets) c.push_back(format_target(t));
  return c;
}

std::vector<TargetResult> profile_targets(const ProfilerSetup& s, const std::vector<LaunchTarget>& targets) {
  const fs::path dir = scratch_directory();
  const fs::path log = dir / "ncu.csv", manifest = dir / "manifest.tsv", output = dir / "output.txt";
  const int status = run_process(ncu_command(s, log.string(), manifest.string(), targets), output);
  const std::string out_text = slurp(output), log_text = slurp(log);
  const auto failed = [&](const std::string& what) {
    return ProfilerError(fmt::format("{} (ncu exited with status {}; its files are in {})\nlast lines of the run's "
                                     "output:\n{}\nlast lines of ncu's log:\n{}",
                                     what, status, dir.string(), tail(out_text, 10), tail(log_text, 10)));
  };
  std::vector<NcuKernel> kernels;
  try {
    check_permission(out_text);  // ncu may print it on its own streams rather than in the log
    kernels = parse_ncu_log(log_text);
  } catch (const ProfilerUnavailable&) {
    std::error_code ec;
    fs::remove_all(dir, ec);  // nothing in it says more than the error
    throw;
  } catch (const ProfilerError& e) {
    throw failed(e.what());
  }
  if (status != 0) throw failed("the profiled run failed");
  std::vector<TargetResult> results(targets.size());
  try {
    const std::vector<ManifestEntry> entries = parse_manifest(slurp(manifest), targets.size());
    const auto measured = attribute_kernels(kernels, entries);
    for (std::size_t i = 0; i < entries.size(); ++i) results[i] = {measured[i], entries[i].reason};
  } catch (const ProfilerError& e) {
    throw failed(e.what());
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return results;
}

bool is_kernel_schedule(const std::string& schedule) {
  try {
    parse_schedule(schedule);  // credit/schedule.hpp: the kernel schedules, one list
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

MeasureSummary measure_points(std::vector<SweepPoint>& points, const ProfilerSetup& s) {
  std::vector<std::size_t> index;
  std::vector<LaunchTarget> targets;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    if (p.disposition != Disposition::Passed || p.dram || !is_kernel_schedule(p.schedule)) continue;
    index.push_back(i);
    targets.push_back({p.workload, p.m, p.n, p.schedule, p.p});
  }
  MeasureSummary sum;
  if (targets.empty()) return sum;
  const auto results = profile_targets(s, targets);
  for (std::size_t k = 0; k < index.size(); ++k) {
    if (results[k].dram) {
      points[index[k]].dram = results[k].dram;
      ++sum.measured;
    } else {
      sum.skipped.push_back(format_target(targets[k]) + ": " + results[k].skipped);
    }
  }
  return sum;
}

}  // namespace credit::traffic
