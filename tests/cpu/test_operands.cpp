// The tensors a launch may take (core/operands.hpp, operands_refusal): the one check behind the public run() and
// launch_declared, on host-made addresses (nothing is dereferenced).
#include <cstdint>
#include <string>

#include "catch.hpp"
#include "core/operands.hpp"

namespace {

// An address on the 16-byte grid, plus `off` bytes (never dereferenced).
template <class T>
T* at(std::uintptr_t off) {
  return reinterpret_cast<T*>(std::uintptr_t(0x10000) + off);
}

}  // namespace

TEST_CASE("operands_refusal: every tensor the declaration counts present and on its grid", "[operands]") {
  credit::RowOperands op;
  op.in[0] = at<const float>(0);
  op.in[1] = at<const float>(64);
  op.col[0] = at<const float>(256);
  op.row_in[0] = at<const float>(4);  // a float's alignment is enough for per-row scalars
  op.out[0] = at<void>(512);
  op.row_out[0] = at<float>(12);
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1).empty());
  CHECK(credit::operands_refusal(op, 3, 1, 1, 1, 1) == "inputs 2 is null");  // a tensor the caller left out
  op.in[1] = at<const float>(68);  // one float past the grid: a tensor slice
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1) == "inputs 1 is not 16-byte aligned (cudaMalloc's pointers are)");
  CHECK(credit::operands_refusal(op, 1, 1, 1, 1, 1).empty());  // a tensor the declaration does not count is not read
  op.in[1] = at<const float>(64);
  op.col[0] = at<const float>(8);
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1) == "col_params 0 is not 16-byte aligned (cudaMalloc's pointers are)");
  op.col[0] = at<const float>(0);
  op.out[0] = at<void>(1);  // an int8 output too: the kernels store whole groups of four from the row's offset
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1) == "outputs 0 is not 16-byte aligned (cudaMalloc's pointers are)");
  op.out[0] = at<void>(0);
  op.row_out[0] = at<float>(2);
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1) == "row_outputs 0 is not 4-byte aligned (cudaMalloc's pointers are)");
  op.row_out[0] = nullptr;
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 1) == "row_outputs 0 is null");
  CHECK(credit::operands_refusal(op, 2, 1, 1, 1, 0).empty());
}
