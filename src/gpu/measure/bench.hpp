#pragma once
// One measured point: check a schedule against the CPU execution of the declaration on
// sampled rows (after poisoning every output), then time it. The benchmark entry point that
// `credit bench` (and later `run-sweep`) use.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/device_info.hpp"
#include "core/sweep_point.hpp"
#include "gpu/launch/device_problem.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/measure/timing.hpp"

namespace credit::gpu {

struct CheckResult {
  bool ok = false;
  std::string reason;
  double max_rel_l2_error = 0;
};

// Runs the schedule once on poisoned outputs and compares every element of sampled rows with
// cpu_split (P = 1) of the declaration; int8 outputs must match exactly. Every output element
// of every row must have been written.
CheckResult check_schedule(DeviceProblem& prob, Schedule s, int p, const DeviceInfo& dev,
                           cudaStream_t stream, std::uint64_t seed);

// The same check of whatever `run` enqueues on `stream`, over the given rows.
CheckResult check_outputs(DeviceProblem& prob, const std::function<void()>& run, cudaStream_t stream,
                          const std::vector<long long>& rows);

// Bytes a schedule moves for rows x n by the static figures (compulsory for staged and
// cluster; plus the re-reads for global-reread, and for partial those of the streamed part of
// each slice, which the L2 may serve).
double compulsory_bytes(const WorkloadInfo& w, long long rows, long long n);
double schedule_traffic_bytes(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                              const DeviceInfo& dev);

// The point of a (schedule, p) that can_implement refuses at rows x n (not supported, with its
// reason), without allocating the problem: what bench records for a negative control no kernel runs.
SweepPoint refused_point(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev);

// Checks then times one (schedule, p) at the problem's shape; never throws for an illegal
// configuration or a wrong answer: the disposition says what happened.
SweepPoint bench_point(DeviceProblem& prob, Schedule s, int p, const DeviceInfo& dev, Timer& timer,
                       const TimingOptions& opt, double copy_gbps, std::uint64_t seed);

}  // namespace credit::gpu
