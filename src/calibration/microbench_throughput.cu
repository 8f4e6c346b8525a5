// Table II throughput rows: local and remote reads and stores per cluster size.
#include "calibration/microbench.hpp"
#include "calibration/microbench_run.hpp"
#include "microbench/throughput.cuh"

namespace credit::gpu {

const char* access_name(Access a) {
  switch (a) {
    case Access::LocalRead: return "local read";
    case Access::LocalStore: return "local store";
    case Access::RemoteRead: return "remote read";
    case Access::RemoteStore: return "remote store";
  }
  return "?";
}

namespace {

ClusterRun::Kernel throughput_kernel_for(Access a) {
  using namespace microbench;
  switch (a) {
    case Access::LocalRead: return &throughput_kernel<Access::LocalRead>;
    case Access::LocalStore: return &throughput_kernel<Access::LocalStore>;
    case Access::RemoteRead: return &throughput_kernel<Access::RemoteRead>;
    case Access::RemoteStore: return &throughput_kernel<Access::RemoteStore>;
  }
  return nullptr;
}

}  // namespace

Stat access_bytes_per_cycle(Access a, int p, const DeviceInfo& dev, int runs) {
  using microbench::ThroughputPolicy;
  ClusterRun run(throughput_kernel_for(a), p, ThroughputPolicy::threads, dev,
                 std::string(access_name(a)) + " throughput at P=" + std::to_string(p));
  return repeat(run, runs, [](const std::vector<microbench::CtaSample>& s) {
    double sum = 0;
    for (const auto& x : s) sum += double(ThroughputPolicy::bytes_per_cta) / double(x.cycles);
    return sum / double(s.size());
  });
}

}  // namespace credit::gpu
