#pragma once
// The paper's model (Eq. 3-9) at one shape, from measurements on this GPU: one checked timing of
// the CUDA baseline (T_B), a copy of the compulsory bytes, the work-free control per legal P
// (T_ctrl). The measured inputs are kept as points, so sweep/reevaluate.hpp can re-evaluate the
// file later. Needs a GPU (credit_gpu).
#include <cstdint>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/results_file.hpp"
#include "core/results_meta.hpp"
#include "core/workload_registry.hpp"
#include "model/profitability.hpp"

namespace credit {

// A results file of kind "prediction" (meta, dev, cal, the copy bandwidth, the points and one
// prediction of variant v over the cluster sizes ps). Throws std::runtime_error when the
// baseline does not pass at this shape.
ResultsFile measure_paper_prediction(const WorkloadInfo& w, long long m, long long n, const std::vector<int>& ps,
                                     model::Variant v, const DeviceInfo& dev, const Calibration& cal,
                                     const Meta& meta, std::uint64_t seed);

}  // namespace credit
