// The CPU split execution (P slices, partials, combine, apply) against the float64 oracle, for
// every declared workload, cluster size and a range of widths including N < P and N = 50257.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

namespace {

constexpr double kTol = 1e-5;  // relative L2 error allowed per output
constexpr int kClusterSizes[] = {1, 2, 4, 8, 16};

std::vector<int> widths_for(int p) {
  std::vector<int> n = {1, 3};
  if (p - 1 > 3) n.push_back(p - 1);  // 1 and 3 are already there
  for (int big : {1000, 4096, 50257}) n.push_back(big);
  return n;
}

long long rows_for(int n) { return n > 10000 ? 2 : 3; }  // keeps the file fast on 2 cores

uint64_t seed_of(size_t workload, int p, int n, int salt) {
  return 0x9E3779B97F4A7C15ull * (workload + 1) ^ (uint64_t(p) << 40) ^ (uint64_t(n) << 8) ^
         uint64_t(salt);
}

// Elements still holding the poison (or NaN): outputs the execution never wrote.
long long unwritten(const HostProblem& pr) {
  long long bad = 0;
  const size_t elems = size_t(pr.m) * size_t(pr.n);
  for (size_t k = 0; k < pr.out.size(); ++k)
    for (size_t i = 0; i < elems; ++i)
      bad += pr.w->outputs[k].type == credit::OutType::F32 ? std::isnan(pr.out_f32(int(k))[i])
                                                           : pr.out_i8(int(k))[i] == -128;
  for (const auto& r : pr.row_out)
    for (float v : r) bad += std::isnan(v);
  return bad;
}

// Every output of an executed problem against the oracles.
void check_outputs(const HostProblem& pr, double tol) {
  CHECK(unwritten(pr) == 0);
  const Reference64 ref = reference64(pr);
  for (size_t k = 0; k < pr.out.size(); ++k) {
    const auto& decl = pr.w->outputs[k];
    INFO("output " << decl.name);
    if (decl.type == credit::OutType::F32) {
      const double err = rel_l2(pr.out_f32(int(k)), ref.out[k]);
      CAPTURE(err, tol);
      CHECK(err <= tol);
      continue;
    }
    // int8: exactly the float32 quantiser; within one step of float64 (ties may round apart).
    REQUIRE(pr.w->name == "quant_int8");  // the only workload with an exact int8 oracle
    std::vector<float> scale;
    const std::vector<int8_t> want = quant_int8_float32(pr, &scale);
    long long mismatches = 0, far = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      mismatches += pr.out_i8(int(k))[i] != want[i];
      far += std::fabs(pr.out_i8(int(k))[i] - ref.out[k][i]) > 1.0;
    }
    CHECK(mismatches == 0);
    CHECK(far == 0);
    CHECK(pr.row_out.at(0) == scale);
  }
  for (size_t k = 0; k < pr.row_out.size(); ++k) {
    INFO("row output " << pr.w->row_outputs[k]);
    const double err = rel_l2(pr.row_out[k].data(), ref.row_out[k]);
    CAPTURE(err, tol);
    CHECK(err <= tol);
  }
}

}  // namespace

TEST_CASE("split execution matches the float64 reference", "[decomposition]") {
  const auto& all = credit::all_workloads();
  for (size_t wi = 0; wi < all.size(); ++wi) {
    for (int p : kClusterSizes) {
      for (int n : widths_for(p)) {
        INFO("workload " << all[wi].name << " N=" << n << " P=" << p);
        HostProblem pr = make_random_problem(all[wi], rows_for(n), n, seed_of(wi, p, n, 0));
        all[wi].cpu_split(pr.operands(), p);
        check_outputs(pr, kTol);
      }
    }
  }
}

// split_global's P (powers of two to 128, core/split.hpp): wide ragged rows, and a row too narrow
// for every CTA to get a slice (at P = 128, N = 1000: 125 slices of 8, then empty ones).
TEST_CASE("split execution matches the float64 reference at split_global's P", "[decomposition]") {
  const auto& all = credit::all_workloads();
  for (size_t wi = 0; wi < all.size(); ++wi)
    for (int p : {32, 64, credit::kMaxSpreadSplit})
      for (int n : {1000, 262147}) {
        REQUIRE(credit::is_spread_split(p));
        INFO("workload " << all[wi].name << " N=" << n << " P=" << p);
        HostProblem pr = make_random_problem(all[wi], 2, n, seed_of(wi, p, n, 4));
        all[wi].cpu_split(pr.operands(), p);
        CHECK(unwritten(pr) == 0);
        check_outputs(pr, kTol);
      }
}

// Logits around 1e3 overflow exp unless the row maximum is taken first.
TEST_CASE("split execution is stable with large logits", "[decomposition]") {
  for (const char* name : {"softmax_bwd", "rms_softmax"}) {
    const auto& w = credit::find_workload(name);
    for (int p : kClusterSizes) {
      for (int n : {3, 1000, 50257}) {
        INFO("workload " << name << " (logits ~1e3) N=" << n << " P=" << p);
        HostProblem pr =
            make_random_problem(w, rows_for(n), n, seed_of(7, p, n, 1), InputScale::LargeLogits);
        w.cpu_split(pr.operands(), p);
        check_outputs(pr, kTol);
      }
    }
  }
}

// rms_softmax is shift invariant and |x s| <= sqrt(N), so its row maximum matters only when
// exp(x s) would overflow: a dominant outlier in a row wider than 88.7^2 = 7868. Without such
// a row, a wrong or missing maximum passes every other test.
TEST_CASE("rms_softmax takes the maximum of a row with an outlier", "[decomposition]") {
  const auto& w = credit::find_workload("rms_softmax");
  const int n = 50257;
  for (int p : kClusterSizes) {
    INFO("workload rms_softmax (outlier) N=" << n << " P=" << p);
    HostProblem pr = make_random_problem(w, 2, n, seed_of(9, p, n, 3));
    REQUIRE(w.inputs.at(0) == "x");
    pr.in[0][n - 1] = 1e4f;  // row 0: in the last slice
    pr.in[0][n + 5] = 1e4f;  // row 1: in the first slice
    w.cpu_split(pr.operands(), p);
    check_outputs(pr, kTol);
  }
}

TEST_CASE("one CTA and sixteen CTAs per row agree", "[decomposition]") {
  for (const auto& w : credit::all_workloads()) {
    for (int n : {4097, 50257}) {
      INFO("workload " << w.name << " N=" << n << ", P=1 vs P=16");
      HostProblem one = make_random_problem(w, 2, n, seed_of(8, 1, n, 2));
      HostProblem sixteen = one;  // same inputs, its own (poisoned) outputs
      w.cpu_split(one.operands(), 1);
      w.cpu_split(sixteen.operands(), 16);
      CHECK(unwritten(one) == 0);
      CHECK(unwritten(sixteen) == 0);
      const double tol = kTol;  // dominated by the P = 1 error
      for (size_t k = 0; k < w.outputs.size(); ++k) {
        INFO("output " << w.outputs[k].name);
        if (w.outputs[k].type == credit::OutType::I8) {
          long long mismatches = 0;  // max is exact in any order
          for (size_t i = 0; i < one.out[k].size(); ++i)
            mismatches += one.out[k][i] != sixteen.out[k][i];
          CHECK(mismatches == 0);
          continue;
        }
        const float* a = one.out_f32(int(k));
        const double err = rel_l2(sixteen.out_f32(int(k)), std::vector<double>(a, a + 2 * n));
        CAPTURE(err, tol);
        CHECK(err <= tol);
      }
      for (size_t k = 0; k < w.row_outputs.size(); ++k) {
        const auto& a = one.row_out[k];
        const double err =
            rel_l2(sixteen.row_out[k].data(), std::vector<double>(a.begin(), a.end()));
        CAPTURE(err, tol);
        CHECK(err <= tol);
      }
    }
  }
}
