#pragma once
// exp for the declarations: exp2 of x * log2(e), on the GPU through the special function unit
// (exp2f: ex2.approx, 2 ulp; the accurate expf costs about four times the instructions), the exp
// the Triton and torch.compile peers use. The rounding of x * log2(e) adds about |x| ulp: below
// 2e-6 relative for |x| <= 16, far inside the 1e-5 relative L2 the oracle allows. The CPU
// execution computes the same formula.
#include <cmath>

#include "core/hd.hpp"

namespace credit {

inline constexpr float kLog2e = 1.4426950408889634f;

#ifndef CREDIT_EXP_FTZ  // a build option for A/B runs: 1 takes ex2.approx.ftz (one MUFU.EX2, results below
#define CREDIT_EXP_FTZ 0  // 2^-126 flushed to zero) where exp2f's ex2.approx keeps subnormals with extra instructions
#endif

CREDIT_HD float fast_exp(float x) {
#if defined(CREDIT_ACCURATE_EXP)  // a build option for A/B runs: the accurate expf
  return expf(x);
#elif defined(__CUDA_ARCH__)
  if constexpr (CREDIT_EXP_FTZ != 0) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * kLog2e));
    return y;
  } else {
    return exp2f(x * kLog2e);
  }
#else
  return std::exp2(x * kLog2e);
#endif
}

}  // namespace credit
