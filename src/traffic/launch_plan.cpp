#include "traffic/launch_plan.hpp"

#include <charconv>
#include <stdexcept>

namespace credit::traffic {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const std::size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

template <class T>
bool positive(std::string_view s, T& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v > 0;
}

bool is_kernel(const NcuKernel& k, const char* name) { return k.name.find(name) != std::string::npos; }

}  // namespace

std::string format_target(const LaunchTarget& t) {
  return t.workload + ":" + std::to_string(t.m) + "x" + std::to_string(t.n) + ":" + t.schedule + ":" +
         std::to_string(t.p);
}

LaunchTarget parse_target(std::string_view text) {
  const auto f = split(text, ':');
  const auto bad = [&](const char* why) {
    return std::invalid_argument("launch target \"" + std::string(text) + "\": " + why +
                                 " (expected WORKLOAD:MxN:SCHEDULE:P, e.g. rms_softmax:1024x65536:cluster:8)");
  };
  if (f.size() != 4) throw bad("four fields separated by ':'");
  LaunchTarget t;
  t.workload = f[0];
  t.schedule = f[2];
  const auto x = f[1].find('x');
  if (t.workload.empty() || t.schedule.empty()) throw bad("empty workload or schedule");
  if (x == std::string_view::npos || !positive(f[1].substr(0, x), t.m) || !positive(f[1].substr(x + 1), t.n))
    throw bad("the shape is not MxN with positive M and N");
  if (!positive(f[3], t.p)) throw bad("P is not a positive integer");
  return t;
}

std::string format_manifest(const std::vector<ManifestEntry>& entries) {
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::string reason = entries[i].reason;
    for (char& c : reason)
      if (c == '\n' || c == '\t') c = ' ';
    out += std::to_string(i) + (entries[i].launched ? "\tlaunched\n" : "\tskipped\t" + reason + "\n");
  }
  return out;
}

std::vector<ManifestEntry> parse_manifest(std::string_view text, std::size_t targets) {
  std::vector<ManifestEntry> out;
  for (std::string_view line : split(text, '\n')) {
    if (line.empty()) continue;
    const auto f = split(line, '\t');
    std::size_t index = 0;
    const bool numbered = std::from_chars(f[0].data(), f[0].data() + f[0].size(), index).ec == std::errc();
    if (!numbered || index != out.size() || f.size() < 2 || (f[1] != "launched" && f[1] != "skipped"))
      throw ProfilerError("the profiled process's manifest is malformed at line " + std::to_string(out.size() + 1) +
                          ": \"" + std::string(line) + "\"");
    out.push_back({f[1] == "launched", f.size() > 2 ? std::string(f[2]) : std::string()});
  }
  if (out.size() != targets)
    throw ProfilerError("the profiled process accounted for " + std::to_string(out.size()) + " of " +
                        std::to_string(targets) + " targets");
  return out;
}

std::vector<std::optional<DramTraffic>> attribute_kernels(const std::vector<NcuKernel>& kernels,
                                                          const std::vector<ManifestEntry>& manifest) {
  std::vector<std::size_t> launched;
  for (std::size_t i = 0; i < manifest.size(); ++i)
    if (manifest[i].launched) launched.push_back(i);
  std::vector<std::optional<DramTraffic>> out(manifest.size());
  std::vector<bool> drained(manifest.size());
  bool probe = false;
  std::size_t markers = 0;
  const auto close = [&](std::size_t target) {  // the group of `target` ends here
    if (out[target]->kernels == 0 || !drained[target])
      throw ProfilerError("ncu: target " + std::to_string(target) + " lacks " +
                          (out[target]->kernels ? "its drain kernel" : "any kernel after its marker"));
  };
  for (const NcuKernel& k : kernels) {
    if (is_kernel(k, kProbeKernel)) {
      if (markers) throw ProfilerError("ncu: the probe kernel came after a marker");
      probe = true;
    } else if (is_kernel(k, kMarkerKernel)) {
      if (markers) close(launched[markers - 1]);
      if (markers == launched.size())
        throw ProfilerError("ncu profiled more markers than the " + std::to_string(launched.size()) + " launched targets");
      const std::size_t target = launched[markers++];
      if (k.grid_x && k.grid_x != static_cast<long long>(target) + 1)
        throw ProfilerError("ncu: marker " + std::to_string(markers) + " names target " + std::to_string(k.grid_x - 1) +
                            ", the manifest says " + std::to_string(target));
      out[target] = DramTraffic{};
    } else {
      if (!markers) throw ProfilerError("ncu profiled kernel " + k.name + " before any marker");
      const std::size_t target = launched[markers - 1];
      if (drained[target]) throw ProfilerError("ncu: kernel " + k.name + " after the drain of target " + std::to_string(target));
      DramTraffic& d = *out[target];
      d.write_bytes += k.write_bytes;
      if (is_kernel(k, kDrainKernel)) {
        drained[target] = true;  // its reads are its own scrub buffer
      } else {
        d.read_bytes += k.read_bytes;
        ++d.kernels;
      }
    }
  }
  if (markers) close(launched[markers - 1]);
  if (!probe)
    throw ProfilerError("ncu profiled no kernel of this run (not even the probe): was the range profiled "
                        "(--profile-from-start off with cudaProfilerStart)?");
  if (markers != launched.size())
    throw ProfilerError("ncu profiled " + std::to_string(markers) + " markers, " + std::to_string(launched.size()) +
                        " targets were launched");
  return out;
}

}  // namespace credit::traffic
