#pragma once
// The tensors of one workload instance on the device, filled with fresh random values by a
// counter-based generator on the GPU (host generation of multi-GB inputs would dominate).
#include <cstdint>
#include <vector>

#include "core/operands.hpp"
#include "core/workload_registry.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/launch/workspace.hpp"

namespace credit::gpu {

class DeviceProblem {
 public:
  // Every tensor from its declared domain (WorkloadInfo::domain_of, standard normal unless declared;
  // the tests draw from the same); scale multiplies the spread of normal inputs.
  DeviceProblem(const WorkloadInfo& w, long long rows, long long n, std::uint64_t seed,
                float scale = 1.0f);
  const RowOperands& operands() const { return op_; }
  const WorkloadInfo& workload() const { return *w_; }
  // The launch workspace of this problem's launches (one stream at a time).
  Workspace& workspace() { return ws_; }

  // Fills every output with a value the operator never produces (NaN; -128 for int8).
  void poison_outputs();
  // Output elements still holding the poison (a kernel that skipped an element).
  long long count_poisoned() const;

  // Host copies of chosen rows, laid out as a RowOperands of rows.size() rows over host memory.
  struct HostRows {
    std::vector<std::vector<float>> in, col, row_in, row_out;
    std::vector<std::vector<unsigned char>> out;
    RowOperands operands;  // pointers into the vectors above
  };
  HostRows download_rows(const std::vector<long long>& rows) const;

 private:
  const WorkloadInfo* w_;
  std::vector<DeviceBuffer> in_, col_, row_in_, out_, row_out_;
  RowOperands op_;
  Workspace ws_;
};

}  // namespace credit::gpu
