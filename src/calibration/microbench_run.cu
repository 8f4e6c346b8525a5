#include "calibration/microbench_run.hpp"
#include "calibration/placement.hpp"

namespace credit::gpu {

using microbench::CtaSample;

ClusterRun::ClusterRun(Kernel kernel, int p, int threads, const DeviceInfo& dev, std::string what)
    : kernel_(kernel),
      shape_{unsigned(p), p, threads, size_t(dev.smem_per_block_optin)},
      out_(sizeof(CtaSample) * size_t(p)),
      what_(std::move(what)) {
  allow_large_clusters(kernel_, dev.smem_per_block_optin);
  if (cluster_capacity(kernel_, shape_) < 1)
    throw Unschedulable(what_ + ": the device cannot co-schedule a cluster of " + std::to_string(p) + " CTAs of " +
                        std::to_string(threads) + " threads with " + std::to_string(shape_.smem) +
                        " B of shared memory each");
}

std::vector<CtaSample> ClusterRun::once() {
  out_.fill_bytes(0xff);  // smid reads kNoSmid unless the CTA wrote its sample
  launch_shape(kernel_, shape_, nullptr, out_.get<CtaSample>());
  std::vector<CtaSample> s(size_t(shape_.p));
  out_.download(s.data(), out_.bytes());  // synchronises: a fault surfaces here
  std::vector<std::uint32_t> smids;
  for (const auto& x : s) smids.push_back(x.smid);
  require_distinct_sms(smids, shape_.p, what_);
  return s;
}

}  // namespace credit::gpu
