#pragma once
// The device a results file was measured on, as the CUDA runtime and nvidia-smi describe it.
#include <string>

namespace credit {

struct DeviceInfo {
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-..." as nvidia-smi prints it
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;       // cudaDevAttrClockRate (maximum boost clock)
  int mem_clock_khz = 0;
  int mem_bus_width_bits = 0;
  long smem_per_block_optin = 0;  // S_max of Eq. 3
  long smem_per_sm = 0;
  long l2_bytes = 0;
  long long global_mem_bytes = 0;
  int driver_version = 0, runtime_version = 0;
  bool cluster_launch = false;
};

}  // namespace credit
