// rint_quotient (core/rounded_quotient.hpp) against rintf(x / s) with the IEEE division: quant_int8's quotient, which
// must agree with the float32 formula bit for bit. Random divisors as quant_int8 makes them (amax / 127) and random
// elements of the row, the exact ties (x / s = k + 1/2), the elements whose rounded quotient is a tie (x = (k + 1/2) s
// rounded), their neighbours a few ulps away, and the edges (tiny and huge divisors, zeros, infinities, NaN).
#include <cmath>
#include <random>
#include <vector>

#include "catch.hpp"
#include "core/rounded_quotient.hpp"

using namespace credit;

namespace {
// Compares at x and at the k ulps either side of it; returns the cases checked.
int check_around(float x, float s, int k) {
  const QuotientBy by = quotient_by(s);
  int n = 0;
  float lo = x, hi = x;
  for (int i = 0; i < k; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
  }
  for (float v = lo;; v = std::nextafter(v, INFINITY)) {
    const float want = std::rint(v / s);
    const float got = rint_quotient(v, by);
    INFO("x = " << v << " s = " << s << " x/s = " << double(v) / double(s));
    REQUIRE(got == want);  // -0 and +0 compare equal: their int8 is the same
    ++n;
    if (v == hi) break;
  }
  return n;
}
}  // namespace

TEST_CASE("rint_quotient equals rintf of the IEEE quotient", "[quant]") {
  std::mt19937 rng(20261206);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-90, 90);
  int checked = 0, ties = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const float amax = std::ldexp(1.0f + std::abs(unit(rng)), exponent(rng));
    const float s = amax / 127.0f;
    for (int i = 0; i < 50; ++i) checked += check_around(amax * unit(rng), s, 2);
    // The row's extremes, and the ties k + 1/2 nearest representable, with neighbours.
    checked += check_around(amax, s, 3) + check_around(-amax, s, 3);
    for (int k = -127; k <= 127; k += 7) checked += check_around((float(k) + 0.5f) * s, s, 3);
  }
  // Exact ties: s a power of two, or three times one, so that (k + 1/2) s is representable.
  for (int e : {-60, -3, 0, 7, 40})
    for (float base : {1.0f, 3.0f, 5.0f}) {
      const float s = std::ldexp(base, e);
      for (int k = -127; k <= 127; ++k) {
        const float x = (float(k) + 0.5f) * s;
        REQUIRE(double(x) == (double(k) + 0.5) * double(s));  // exactly a tie
        checked += check_around(x, s, 2);
        ++ties;
      }
    }
  CHECK(ties == 5 * 3 * 255);
  CHECK(checked > 1000000);
}

TEST_CASE("rint_quotient at the edges: tiny and huge divisors, zeros, infinities, NaN", "[quant]") {
  for (float s : {0x1p-110f, 0x1p-126f, 1e-40f, 1e-45f, 0x1p100f, 3e38f, INFINITY}) {
    const QuotientBy by = quotient_by(s);
    for (float x : {0.0f, -0.0f, 1e-45f, s, -2.5f * s, 126.5f * s, -127.0f * s, 3e38f, -INFINITY}) {
      INFO("x = " << x << " s = " << s);
      const float want = std::rint(x / s);
      const float got = rint_quotient(x, by);
      if (std::isnan(want)) CHECK(std::isnan(got));
      else CHECK(got == want);
    }
  }
  CHECK(std::isnan(rint_quotient(NAN, quotient_by(0.5f))));
}
