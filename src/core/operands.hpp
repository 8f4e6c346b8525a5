#pragma once
// The tensors of one launch of a row-wise operator, shared by the CPU execution and
// the kernels (one grid-constant parameter struct, as ThunderKittens does).
#include <cstdint>
#include <string>

#include "core/hd.hpp"
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
  // Split-row through global memory (megakernel, local fusion) only: the first row of this
  // launch's row group, CTAs per row, and the exchange's scratch: partials[row - row0][stat][rank]
  // and arrivals[row - row0][stage + 1] (a counter per stage and one of departed CTAs; zero
  // before the first launch, and the kernel leaves them zero).
  long long row0 = 0;
  int split = 1;
  float* partials = nullptr;
  unsigned* arrivals = nullptr;
  // split_global only: tickets[0], the seats taken (zero before the first launch, left zero); tickets[1] counts
  // launches, and partials hold 8-byte words (a value and its launch's tag).
  unsigned* tickets = nullptr;
  // Seed 001's Fig. 6 controls in the megakernel (bits of MegakernelSwitch), and the global
  // buffer [retained planes][rows x n] the spill switch writes to.
  unsigned switches = 0;
  float* spill = nullptr;
  // Diagnostics only (credit bench --phases): when set, thread 0 of each CTA of the split-row
  // kernel writes %globaltimer at its phase boundaries, phase_clock[cta * kPhaseMarks + mark].
  unsigned long long* phase_clock = nullptr;
  // The partial schedule only: floats of each CTA's slice kept in shared memory (a multiple of 4);
  // the rest streams from global memory at every phase. Every other schedule keeps its slice whole.
  int keep = 0x7ffffff0;
  // Column parameters ask the L2 to keep their lines (evict_last): set by gpu::launch where few CTAs
  // share an SM (gpu/launch/schedules.cu, keep_columns_in_l2).
  bool col_keep_l2 = false;
};

// Why a launch cannot take these tensors ("" when it can), for a declaration of these tensor counts: a null
// pointer, or a base off the grid the kernels index from. Row tensors and column parameters must be 16-byte aligned
// (as cudaMalloc returns them): the kernels read and write float4 groups and bulk-copy slices, and find a row's
// scalar head from its element offset; per-row scalars need a float's alignment. One check for the public
// launcher (api/launch.cpp) and for declared workloads (credit/declare.cuh).
inline std::string operands_refusal(const RowOperands& op, int inputs, int col_params, int row_params, int outputs,
                                    int row_outputs) {
  auto bad = [](const void* ptr, std::uintptr_t align, const char* what, int k) -> std::string {
    if (ptr == nullptr) return std::string(what) + " " + std::to_string(k) + " is null";
    if (reinterpret_cast<std::uintptr_t>(ptr) % align != 0)
      return std::string(what) + " " + std::to_string(k) + " is not " + std::to_string(align) +
             "-byte aligned (cudaMalloc's pointers are)";
    return "";
  };
  std::string why;
  for (int k = 0; k < inputs && why.empty(); ++k) why = bad(op.in[k], 16, "inputs", k);
  for (int k = 0; k < col_params && why.empty(); ++k) why = bad(op.col[k], 16, "col_params", k);
  for (int k = 0; k < row_params && why.empty(); ++k) why = bad(op.row_in[k], alignof(float), "row_params", k);
  for (int k = 0; k < outputs && why.empty(); ++k) why = bad(op.out[k], 16, "outputs", k);
  for (int k = 0; k < row_outputs && why.empty(); ++k) why = bad(op.row_out[k], alignof(float), "row_outputs", k);
  return why;
}

// Floats per plane of the spill buffer: rows x n rounded up to whole 16-byte vectors, so that
// every plane starts 16-byte aligned like the inputs.
CREDIT_HD long long spill_plane_floats(long long rows, int n) { return (rows * n + 3) / 4 * 4; }

// Marks: 0 start, 1 + 2l stage l accumulated, 2 + 2l stage l exchanged, 2L + 1 outputs issued.
inline constexpr int kPhaseMarks = 2 * kMaxStages + 2;

// Runtime switches of one compiled megakernel that restore what retention saves.
enum MegakernelSwitch : unsigned {
  kReloadInputs = 1u,   // every phase after the first reloads the retained inputs from global memory
  kSpillRetained = 2u,  // the retained values (E for rms_softmax) go to global memory and back
};

}  // namespace credit
