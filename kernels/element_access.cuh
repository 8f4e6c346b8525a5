#pragma once
// The stored element type of a launch's row tensors, column parameters and per-element float outputs:
// float, __nv_bfloat16 or __half. A kernel instantiated for Stored<W, E> reads and writes W's tensors as E and
// computes in fp32; its 16-byte groups hold 16 / sizeof(E) elements (SpanOf<W>), and its shared-memory planes
// keep the slice in E (PlanesOf<W>). Every other kernel is instantiated for W itself: float.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "core/operands.hpp"
#include "core/row_span.hpp"
#include "core/workload.hpp"

namespace credit::kernels {

// W's declaration with its tensors stored as E (core/workload.hpp's element_t reads `element`).
template <class W, class E>
struct Stored : W {
  using element = E;
};

// Elements per 16-byte group, and what a group is in registers as loaded: float4, or 16 raw bytes.
template <class E>
inline constexpr int group_elems = int(16 / sizeof(E));
template <class E>
using Pack = std::conditional_t<std::is_same_v<E, float>, float4, uint4>;

template <class W>
using SpanOf = BasicRowSpan<group_elems<element_t<W>>>;

// Retained inputs live in planes of shared memory, one plane per retained input, in the stored type.
template <class E>
struct PlanesT {
  E* base;
  int stride;  // elements per plane
  __device__ E* plane(int r) const { return base + r * stride; }
};
template <class W>
using PlanesOf = PlanesT<element_t<W>>;

// The launch's tensors as E.
template <class W>
__device__ __forceinline__ const element_t<W>* in_of(const RowOperands& op, int k) {
  return reinterpret_cast<const element_t<W>*>(op.in[k]);
}
template <class W>
__device__ __forceinline__ const element_t<W>* col_of(const RowOperands& op, int k) {
  return reinterpret_cast<const element_t<W>*>(op.col[k]);
}

template <class E>
__device__ __forceinline__ float to_float(E x) {
  if constexpr (std::is_same_v<E, float>) return x;
  else if constexpr (std::is_same_v<E, __nv_bfloat16>) return __bfloat162float(x);
  else return __half2float(x);
}
template <class E>
__device__ __forceinline__ E from_float(float x) {
  if constexpr (std::is_same_v<E, float>) return x;
  else if constexpr (std::is_same_v<E, __nv_bfloat16>) return __float2bfloat16_rn(x);
  else return __float2half_rn(x);
}
// The 16 bits of a narrow element, and back.
template <class E>
__device__ __forceinline__ unsigned short bits_of(E x) {
  if constexpr (std::is_same_v<E, __nv_bfloat16>) return __bfloat16_as_ushort(x);
  else return __half_as_ushort(x);
}
template <class E>
__device__ __forceinline__ float float_of_bits(unsigned short b) {
  if constexpr (std::is_same_v<E, __nv_bfloat16>) return __uint_as_float(unsigned(b) << 16);  // exact
  else return __half2float(__ushort_as_half(b));
}

// Lane e of a loaded group, as fp32.
template <class E>
__device__ __forceinline__ float lane(const Pack<E>& v, int e) {
  if constexpr (std::is_same_v<E, float>) {
    return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
  } else {
    const unsigned w = e < 2 ? v.x : e < 4 ? v.y : e < 6 ? v.z : v.w;
    return float_of_bits<E>(static_cast<unsigned short>((e & 1) ? w >> 16 : w & 0xffffu));
  }
}

// The group of 16 / sizeof(E) elements at p where p is not 16-byte aligned (column parameters of a row width that is
// not a multiple of the group): element by element, load1(q) reading the scalar at q (a float, or an element's 16
// bits), packed as a 16-byte load would have returned them.
template <class E, class Load1>
__device__ __forceinline__ Pack<E> gather_group(const E* p, Load1 load1) {
  if constexpr (std::is_same_v<E, float>) {
    return make_float4(load1(p), load1(p + 1), load1(p + 2), load1(p + 3));
  } else {
    const auto* b = reinterpret_cast<const unsigned short*>(p);
    unsigned w[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) w[j] = unsigned(load1(b + 2 * j)) | unsigned(load1(b + 2 * j + 1)) << 16;
    return make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// A group of G fp32 values stored as E.
template <class E>
__device__ __forceinline__ Pack<E> pack(const float (&y)[group_elems<E>]) {
  if constexpr (std::is_same_v<E, float>) {
    return make_float4(y[0], y[1], y[2], y[3]);
  } else {
    auto two = [&](int e) {
      return unsigned(bits_of(from_float<E>(y[e]))) | (unsigned(bits_of(from_float<E>(y[e + 1]))) << 16);
    };
    return make_uint4(two(0), two(2), two(4), two(6));
  }
}

}  // namespace credit::kernels
