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
};

}  // namespace credit
