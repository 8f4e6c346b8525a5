#pragma once
// Host tensors of one workload instance with fresh random inputs, shared by the CPU and GPU
// tests. Built from the run-time WorkloadInfo, so a new workload needs no change here unless
// one of its inputs needs a special distribution (see draw_for in random_problem.cpp).
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/element_type.hpp"
#include "core/workload_registry.hpp"

enum class InputScale { Normal, LargeLogits };  // LargeLogits: logits-like inputs ~ 1000 + 4 N(0,1)

struct HostProblem {
  const credit::WorkloadInfo* w = nullptr;
  long long m = 0;                                           // rows
  int n = 0;                                                 // row width
  std::vector<std::vector<float>> in, col, row_in, row_out;  // [m*n], [n], [m], [m]
  std::vector<std::vector<unsigned char>> out;  // [m*n] elements of out_bytes(type) each

  credit::RowOperands operands();  // pointers into the vectors above

  const float* out_f32(int k) const { return reinterpret_cast<const float*>(out[k].data()); }
  const int8_t* out_i8(int k) const { return reinterpret_cast<const int8_t*>(out[k].data()); }

  // Tensors by their declared name (throws std::invalid_argument when absent), so that an
  // oracle can read them without depending on the declaration's order.
  const std::vector<float>& input(std::string_view name) const;
  const std::vector<float>& col_param(std::string_view name) const;
  const std::vector<float>& row_param(std::string_view name) const;

  // The inputs and column parameters as stored in element type t (rounded to nearest even; per-row
  // scalars stay fp32), so that the float64 oracle sees what a kernel reading that type reads; and the fp32
  // per-element outputs as a kernel storing that type would leave them.
  void round_inputs(credit::ElementType t);
  void round_outputs(credit::ElementType t);

  // Values a correct kernel never writes: NaN (all 0xFF bytes) for float outputs and row
  // outputs, -128 for int8 outputs (the quantiser clamps to [-127, 127]).
  void poison_outputs();
};

HostProblem make_random_problem(const credit::WorkloadInfo& w, long long m, int n, uint64_t seed,
                                InputScale scale = InputScale::Normal);
