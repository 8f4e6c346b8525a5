#pragma once
// bench --traffic and a sweep's "traffic": the measured DRAM traffic of every passed kernel point
// (traffic/profile_traffic.hpp), in the order a command needs it.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cli/commands.hpp"
#include "core/sweep_point.hpp"
#include "traffic/profile_traffic.hpp"

namespace credit::cli {

// Finds ncu before anything else is done (throws traffic::ProfilerUnavailable: exit 3).
traffic::ProfilerSetup traffic_setup(const GlobalOptions& g, std::uint64_t seed);

// The probe alone, on the GPU: a run that cannot read the counters fails here, before the timing.
void check_profiler(const traffic::ProfilerSetup& s);

// Profiles the passed kernel points that have no measurement, says which could not be, and
// prints the table to `table`.
void measure_traffic(std::vector<SweepPoint>& points, const traffic::ProfilerSetup& s, std::FILE* table);

}  // namespace credit::cli
