#pragma once
// The test oracle: a naive float64 evaluation of each workload, written again from DESIGN.md
// section 1. It deliberately shares no code with the declarations in src/core/workloads and
// reads tensors by name, so a mistake in a declaration cannot cancel out in the comparison.
#include <cstdint>
#include <vector>

#include "support/random_problem.hpp"

struct Reference64 {
  std::vector<std::vector<double>> out;      // per declared output, [m*n] (int8 outputs as q)
  std::vector<std::vector<double>> row_out;  // per declared row output, [m]
};

// Dispatches on p.w->name; throws std::invalid_argument for a workload it does not know.
Reference64 reference64(const HostProblem& p);

// quant_int8 evaluated in float32 (IEEE division, rintf, default rounding): the int8 outputs
// of any correct implementation equal these exactly. Writes the per-row scale if asked.
std::vector<int8_t> quant_int8_float32(const HostProblem& p, std::vector<float>* scale);

// ||got - ref|| / ||ref|| over ref.size() elements; ||got - ref|| when ||ref|| == 0;
// +inf when got holds a NaN or an infinity.
double rel_l2(const float* got, const std::vector<double>& ref);
