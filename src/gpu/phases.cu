#include "gpu/phases.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/workload_registry.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/workspace.hpp"

namespace credit::gpu {

std::vector<PhaseMark> time_phases(const WorkloadInfo& w, Schedule s, int p, const RowOperands& op,
                                   const DeviceInfo& dev, cudaStream_t stream, int runs) {
  if (!traits_of(s).phase_marks)
    throw std::invalid_argument(std::string("phase timelines exist for the split-row kernel (staged, cluster, "
                                            "partial, partial_one, megakernel), not ") + schedule_name(s));
  const long long ctas = op.rows * (s == Schedule::Staged ? 1 : p);
  DeviceBuffer clock(size_t(ctas) * kPhaseMarks * sizeof(unsigned long long));
  RowOperands timed = op;
  timed.phase_clock = clock.get<unsigned long long>();
  Workspace ws;
  for (int i = 0; i < std::max(1, runs); ++i) ws.launch(w, s, p, timed, dev, stream);
  CREDIT_CUDA(cudaStreamSynchronize(stream));
  std::vector<unsigned long long> t(size_t(ctas) * kPhaseMarks);
  clock.download(t.data(), t.size() * sizeof(t[0]));

  const int marks = 2 * w.figures.L + 2;
  unsigned long long t0 = ~0ULL;
  for (long long c = 0; c < ctas; ++c) t0 = std::min(t0, t[size_t(c) * kPhaseMarks]);
  std::vector<PhaseMark> out;
  for (int k = 0; k < marks; ++k) {
    std::vector<double> us;
    for (long long c = 0; c < ctas; ++c) us.push_back(double(t[size_t(c) * kPhaseMarks + k] - t0) * 1e-3);
    std::sort(us.begin(), us.end());
    const std::string stage = std::to_string((k - 1) / 2);
    out.push_back({k == 0 ? "start" : k == marks - 1 ? "outputs issued"
                                    : k % 2 ? "stage " + stage + " accumulated" : "stage " + stage + " exchanged",
                   us[us.size() / 2], us.back()});
  }
  return out;
}

}  // namespace credit::gpu
