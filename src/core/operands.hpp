#pragma once
// The tensors of one launch of a row-wise operator, shared by the CPU execution and
// the kernels (one grid-constant parameter struct, as ThunderKittens does).
#include "core/workload.hpp"

namespace credit {

struct RowOperands {
  const float* in[kMaxInputs] = {};          // [rows x n], row-major
  const float* col[kMaxColParams] = {};      // [n]
  const float* row_in[kMaxRowParams] = {};   // [rows]
  void* out[kMaxOutputs] = {};               // [rows x n], float or int8 per declaration
  float* row_out[kMaxRowOutputs] = {};       // [rows]
  long long rows = 0;
  int n = 0;
  // Split-row through global memory (the megakernel) only: the first row of this launch's row
  // group, CTAs per row, and the exchange's scratch: partials[row - row0][stat][rank] and
  // arrivals[row - row0][stage], the latter zeroed before each launch.
  long long row0 = 0;
  int split = 1;
  float* partials = nullptr;
  unsigned* arrivals = nullptr;
};

}  // namespace credit
