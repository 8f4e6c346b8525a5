// An experiment, "retain a narrower copy of the inputs": would a copy kept in bf16, fp16 or 3 bytes (fp32 without
// its low 8 mantissa bits) meet the 1e-5 relative L2 error? The float64 oracle on the inputs as drawn against the oracle on the same inputs rounded to the narrower type (round to nearest even):
// a lower bound on what a kernel computing from such a copy would miss by (its own fp32 error adds to it).
// Four rows of 262144 per workload; prints the worst output's relative L2 error, for quant_int8 the share
// of int8 outputs that change (the tests ask them bit-exact).
// Run: build/tests/credit_narrow_retention (CPU only; built with the tests so that it keeps compiling).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "core/workload_registry.hpp"
#include "reference/reference64.hpp"
static float round_bf16(float x) {
  uint32_t u; std::memcpy(&u, &x, 4);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  float y; std::memcpy(&y, &u, 4); return y;
}
static float round_fp24(float x) {  // fp32 without its low 8 mantissa bits: a 3-byte copy
  uint32_t u; std::memcpy(&u, &x, 4);
  u = (u + 0x7Fu + ((u >> 8) & 1u)) & 0xFFFFFF00u;
  float y; std::memcpy(&y, &u, 4); return y;
}
static float round_f16(float x) {  // 10 explicit mantissa bits, no subnormal/overflow handling (inputs are O(1))
  int e; const double m = std::frexp(double(x), &e);  // x = m 2^e, 0.5 <= |m| < 1
  return float(std::ldexp(std::nearbyint(std::ldexp(m, 11)), e - 11));
}
int main() {
  for (const auto& w : credit::all_workloads()) {
    HostProblem h = make_random_problem(w, 4, 262144, 27);
    const Reference64 exact = reference64(h);
    double worst[3] = {0, 0, 0};
    for (int t = 0; t < 3; ++t) {
      HostProblem r = h;
      for (auto& v : r.in) for (float& x : v) x = t == 0 ? round_bf16(x) : t == 1 ? round_f16(x) : round_fp24(x);
      const Reference64 got = reference64(r);
      for (size_t k = 0; k < exact.out.size(); ++k) {
        std::vector<float> g(got.out[k].begin(), got.out[k].end());
        double e = rel_l2(g.data(), exact.out[k]);
        if (w.outputs[k].type == credit::OutType::I8) {  // quant_int8: share of q that change
          size_t diff = 0; for (size_t i = 0; i < g.size(); ++i) diff += got.out[k][i] != exact.out[k][i];
          e = double(diff) / double(g.size());
        }
        worst[t] = std::max(worst[t], e);
      }
    }
    std::printf("%-20s bf16 %.2e  fp16 %.2e  fp24 %.2e%s\n", w.name.c_str(), worst[0], worst[1], worst[2],
                w.name == "quant_int8" ? "  (share of int8 outputs that change)" : "");
  }
}
