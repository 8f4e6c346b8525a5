#include "gpu/launch/device_fit.hpp"

#include <fmt/format.h>

namespace credit {

double problem_bytes(const WorkloadInfo& w, long long rows, long long n) {
  const double elems = double(rows) * double(n);
  double per_elem = 4.0 * double(w.inputs.size());
  for (const auto& o : w.outputs) per_elem += out_bytes(o.type);
  return elems * per_elem + 4.0 * double(n) * double(w.col_params.size()) +
         4.0 * double(rows) * double(w.row_params.size() + w.row_outputs.size());
}

std::string device_memory_problem(const WorkloadInfo& w, long long rows, long long n, const DeviceInfo& dev) {
  const double need = problem_bytes(w, rows, n);
  const double have = double(dev.global_mem_bytes);
  if (need <= kDeviceMemoryShare * have) return "";
  return fmt::format("{} {}x{}: its operands take {:.1f} GB, more than {:.0f}% of the device's {:.1f} GB", w.name,
                     rows, n, need / 1e9, kDeviceMemoryShare * 100, have / 1e9);
}

}  // namespace credit
