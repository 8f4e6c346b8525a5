#include "cli/traffic_option.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "traffic/traffic_table.hpp"

namespace credit::cli {

traffic::ProfilerSetup traffic_setup(const GlobalOptions& g, std::uint64_t seed) {
  return {traffic::find_ncu(), traffic::self_executable(), g.device, seed};
}

void check_profiler(const traffic::ProfilerSetup& s) {
  spdlog::info("traffic: checking that {} can read the DRAM counters", s.ncu);
  traffic::profile_targets(s, {});
}

void measure_traffic(std::vector<SweepPoint>& points, const traffic::ProfilerSetup& s, std::FILE* table) {
  spdlog::info("traffic: profiling every passed kernel once under {} (replays are slow: minutes for many points)",
               s.ncu);
  const traffic::MeasureSummary sum = traffic::measure_points(points, s);
  for (const auto& why : sum.skipped) spdlog::warn("traffic: not measured: {}", why);
  spdlog::info("traffic: {} point(s) measured", sum.measured);
  fmt::print(table, "{}", traffic::traffic_table(points));
}

}  // namespace credit::cli
