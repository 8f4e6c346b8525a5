#include <cstdio>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_query.hpp"

namespace credit::gpu {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

namespace {

std::string uuid_string(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char s[48];
  std::snprintf(s, sizeof s,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return s;
}

int attr(cudaDeviceAttr a, int device) {
  int v = 0;
  CREDIT_CUDA(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

}  // namespace

DeviceInfo query_device(int device) {
  const int n = device_count();
  if (n == 0) throw NoGpu("no CUDA GPU found: this command needs an NVIDIA Hopper GPU (sm_90)");
  if (device < 0 || device >= n)
    throw NoGpu("device " + std::to_string(device) + " does not exist (" + std::to_string(n) +
                " CUDA device(s) present)");
  cudaDeviceProp p{};
  CREDIT_CUDA(cudaGetDeviceProperties(&p, device));
  DeviceInfo d;
  d.name = p.name;
  d.uuid = uuid_string(p.uuid);
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.sm_clock_khz = attr(cudaDevAttrClockRate, device);
  d.mem_clock_khz = attr(cudaDevAttrMemoryClockRate, device);
  d.mem_bus_width_bits = p.memoryBusWidth;
  d.smem_per_block_optin = long(p.sharedMemPerBlockOptin);
  d.smem_per_sm = long(p.sharedMemPerMultiprocessor);
  d.l2_bytes = p.l2CacheSize;
  d.global_mem_bytes = (long long)p.totalGlobalMem;
  CREDIT_CUDA(cudaDriverGetVersion(&d.driver_version));
  CREDIT_CUDA(cudaRuntimeGetVersion(&d.runtime_version));
  d.cluster_launch = attr(cudaDevAttrClusterLaunch, device) != 0;
  if (!d.cluster_launch || d.cc_major < 9)
    throw NoGpu(d.name + " (compute " + std::to_string(d.cc_major) + "." +
                std::to_string(d.cc_minor) +
                ") cannot launch thread-block clusters: credit needs compute capability 9.0+");
  return d;
}

DeviceInfo use_device(int device) {
  DeviceInfo d = query_device(device);
  CREDIT_CUDA(cudaSetDevice(device));
  return d;
}

}  // namespace credit::gpu
