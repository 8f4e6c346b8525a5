#pragma once
// rint(x / s) bit for bit as rintf(x / s) with the IEEE division (round to nearest even, twice: the quotient to
// float, then to an integer), with a multiply by 1 / s in place of the division wherever that cannot change the
// result: quant_int8's per-element quotient. A 16-bit row gives a CTA twice the elements per byte, and there the
// division (a reciprocal, Newton steps and a range check per element) and rintf made quant_int8 compute-bound at
// 79-87% of copy (H100, 2026-12-06).
#include <cmath>

#include "core/fast_math.hpp"
#include "core/hd.hpp"

namespace credit {

// A row's divisor and its reciprocal (one division a row).
struct QuotientBy {
  float s = 1, inv = 1;
};
CREDIT_HD QuotientBy quotient_by(float s) { return QuotientBy{s, 1.0f / s}; }

// y = x * inv is within |y| 2^-22 of x / s, and so of the rounded quotient (2^-24 from 1 / s, 2^-24 from the product,
// 2^-24 from the quotient's own rounding). Where y is farther than four times that from the nearest half-integer,
// both lie between the same two half-integers and round to the same integer, rint(y), taken by adding 1.5 x 2^23
// (exact for |y| < 2^22). Elsewhere (about 1 in 10^4 of the elements of random rows, measured: a branch a warp
// rarely takes) and for y not below 2^20 or not a number, the division itself.
CREDIT_HD float rint_quotient(float x, const QuotientBy& d) {
  const float y = x * d.inv;
  const float q = (y + kRoundMagic) - kRoundMagic;
  const float a = fabsf(y);
  if (a < 0x1p20f && fabsf(fabsf(y - q) - 0.5f) > fmaf(a, 0x1p-20f, 0x1p-20f)) return q;
  return rintf(x / d.s);
}

}  // namespace credit
