#pragma once
// Measured DRAM traffic beside the model's (Fig. 5): bytes per element of a point and
// the flag for a kernel that moves more than its model says. The model of a schedule is the
// point's traffic_bytes: the compulsory bytes (static figures, D_fixed) plus, for the one-CTA
// global-reread kernel, the b_reread bytes per element it reads again.
// A point's own figures, written with it in every results file (io/json_sweep_point.cpp): they live with the
// records, apart from the Nsight Compute side that measures them (traffic/).
#include "core/sweep_point.hpp"

namespace credit::dram {

// Measured above this multiple of the model: flagged.
inline constexpr double kOverModel = 1.05;

// Bytes per element (M x N) of a point with a measurement.
struct PerElement {
  double read = 0, write = 0, total = 0;  // measured
  double model = 0;       // traffic_bytes / (M N)
  double compulsory = 0;  // compulsory_bytes / (M N): the floor
  double reread = 0;      // model - compulsory: what the schedule reads again by its own count
  bool over_model = false;
};

// Throws std::logic_error for a point without a measurement (p.dram empty).
PerElement per_element(const SweepPoint& p);

// Measured read + write bytes above kOverModel x traffic_bytes.
bool over_model(const SweepPoint& p, const DramTraffic& d);

}  // namespace credit::dram
