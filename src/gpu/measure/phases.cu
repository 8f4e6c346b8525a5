#include "gpu/measure/phases.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/workload_registry.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/launch/workspace.hpp"

namespace credit::gpu {

std::vector<PhaseMark> time_phases(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op,
                                   const DeviceInfo& dev, cudaStream_t stream, int runs) {
  if (!traits_of(s).phase_marks)
    throw std::invalid_argument(std::string("phase timelines exist for the split-row kernel (staged, cluster, "
                                            "partial, partial_one, megakernel, split_global), not ") + schedule_name(s));
  const long long ctas = op.rows * (s == Schedule::Staged ? 1 : p);
  DeviceBuffer clock(size_t(ctas) * kPhaseMarks * sizeof(unsigned long long));
  RowOperands timed = op;
  timed.phase_clock = clock.get<unsigned long long>();
  Workspace ws;
  for (int i = 0; i < std::max(1, runs); ++i) ws.launch(w, s, p, timed, dev, stream);
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  std::vector<unsigned long long> t(size_t(ctas) * kPhaseMarks);
  clock.download(t.data(), t.size() * sizeof(t[0]));

  return phase_timeline(t, ctas, kPhaseMarks, w.figures.L);
}

}  // namespace credit::gpu
