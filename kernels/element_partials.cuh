#pragma once
// Per-element work of a row-wise kernel, generic over the workload declaration: stage partials and their
// identities, one element's contributions folded in, and h's outputs stored for a group or one element.
#include "core/operands.hpp"
#include "core/fast_math.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "kernels/cache_policy_access.cuh"
#include "kernels/element_access.cuh"
#include "kernels/row_span.cuh"

namespace credit::kernels {

// One 16-byte group per input, as loaded (float4, or 16 raw bytes of a narrower type).
template <int R, class P = float4>
struct Vec {
  P x[R > 0 ? R : 1];
};

using Planes = PlanesT<float>;  // fp32 planes (PlanesOf<W> for a kernel instantiated in any element type)

template <class W>
constexpr int n_inputs = int(W::inputs.size());

// Stage l's per-thread partials: the identities, then one contribution per element folded in.
template <class W, int l>
__device__ __forceinline__ void init_partials(float (&acc)[W::stages[l].q]) {
#pragma unroll
  for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_identity(op_of<W>(stat_offset<W>(l) + j));
}

// Folds stage l's q values g (one element's contributions, or another span's partials) into acc.
template <class W, int l>
__device__ __forceinline__ void fold_partials(float (&acc)[W::stages[l].q], const float* g) {
#pragma unroll
  for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_apply(op_of<W>(stat_offset<W>(l) + j), acc[j], g[j]);
}

template <class W, int l>
__device__ __forceinline__ void add_contribution(float (&acc)[W::stages[l].q], const float* x,
                                                 const typename W::Ctx& ctx) {
  float g[W::stages[l].q];
  W::template contribute<l>(x, ctx, g);
  fold_partials<W, l>(acc, g);
}

// Four int8 outputs, integers in [-128, 127] (OutType::I8), packed in a word: adding kRoundMagic (core/fast_math.hpp)
// puts each one's two's complement in the low byte of the sum's bits, four full-rate adds and three byte permutes
// where four float-to-int8 conversions (F2I, a quarter of the rate) made quant_int8 compute-bound in bf16.
__device__ __forceinline__ unsigned int8x4_bits(const float* v) {
  const unsigned b0 = __float_as_uint(v[0] + kRoundMagic), b1 = __float_as_uint(v[1] + kRoundMagic);
  const unsigned b2 = __float_as_uint(v[2] + kRoundMagic), b3 = __float_as_uint(v[3] + kRoundMagic);
  return __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
}

// The outputs h produced for G consecutive elements starting at `at` (16-byte stores of the element type, G-byte
// for int8), and for one element.
template <class W>
__device__ __forceinline__ void store_group(const RowOperands& op, long long at,
                                            const float (&o)[int(W::outputs.size())][SpanOf<W>::group]) {
  using E = element_t<W>;
  constexpr int G = SpanOf<W>::group;
#pragma unroll
  for (int k = 0; k < int(W::outputs.size()); ++k) {
    if (output_is_f32<W>(k)) {  // folded: k is unrolled
      if constexpr (std::is_same_v<E, float>) {
        store_out4(static_cast<float*>(op.out[k]) + at, make_float4(o[k][0], o[k][1], o[k][2], o[k][3]));
      } else {
        auto* p = reinterpret_cast<uint4*>(static_cast<E*>(op.out[k]) + at);
        __stcs(p, pack<E>(o[k]));
      }
    } else {
      unsigned q[G / 4];
#pragma unroll
      for (int j = 0; j < G / 4; ++j) q[j] = int8x4_bits(o[k] + 4 * j);
      signed char* p = static_cast<signed char*>(op.out[k]) + at;
      if constexpr (G == 4) {
        *reinterpret_cast<unsigned*>(p) = q[0];
      } else {
        static_assert(G == 8);
        *reinterpret_cast<uint2*>(p) = make_uint2(q[0], q[1]);
      }
    }
  }
}
template <class W>
__device__ __forceinline__ void store_element(const RowOperands& op, long long at, const float* y) {
#pragma unroll
  for (int k = 0; k < int(W::outputs.size()); ++k) {
    if (output_is_f32<W>(k)) static_cast<element_t<W>*>(op.out[k])[at] = from_float<element_t<W>>(y[k]);
    else static_cast<signed char*>(op.out[k])[at] = static_cast<signed char>(y[k]);
  }
}

}  // namespace credit::kernels
