// The tests' own machinery: the random inputs and the float64 oracle split their work over the
// machine's cores (tests/support, tests/reference). Neither may change what a test sees with the
// thread count: a tensor depends only on its seed, and the oracle's rows only on their own inputs.
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "core/workload_registry.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

using namespace credit;

namespace {
// Row r of p alone, as a problem of one row.
HostProblem one_row(const HostProblem& p, long long r) {
  HostProblem q = p;
  q.m = 1;
  for (auto& t : q.in) t.assign(t.begin() + r * p.n, t.begin() + (r + 1) * p.n);
  for (auto& t : q.row_in) t.assign(1, t[size_t(r)]);
  return q;
}
}  // namespace

TEST_CASE("random inputs depend on the seed alone, over several draw chunks", "[support]") {
  const WorkloadInfo& w = find_workload("softmax_bwd");
  const long long m = 3;
  const int n = 400003;  // 1.2 M elements per input: two chunks of 2^20 and a ragged third
  const HostProblem a = make_random_problem(w, m, n, 11), b = make_random_problem(w, m, n, 11);
  const HostProblem c = make_random_problem(w, m, n, 12);
  REQUIRE(a.in.size() == 2);
  for (size_t k = 0; k < a.in.size(); ++k) {
    CHECK(a.in[k] == b.in[k]);
    CHECK(a.in[k] != c.in[k]);
    CHECK(std::count(a.in[k].begin(), a.in[k].end(), 0.0f) == 0);
  }
  CHECK(a.in[0] != a.in[1]);  // each tensor its own seed
  // The chunks are not one stream repeated: the second starts elsewhere than the first.
  const auto& x = a.in[0];
  const size_t chunk = size_t(1) << 20;
  CHECK_FALSE(std::equal(x.begin(), x.begin() + 64, x.begin() + chunk));
  // softmax_bwd's inputs are N(0, 1) (its declaration's domain): mean and spread over all 1.2 M
  double s = 0, ss = 0;
  for (float v : x) s += v, ss += double(v) * v;
  const double mean = s / double(x.size()), var = ss / double(x.size()) - mean * mean;
  CHECK(std::fabs(mean) < 0.01);
  CHECK(std::fabs(var - 1.0) < 0.01);
}

TEST_CASE("the oracle over many rows equals the oracle of each row alone", "[support]") {
  for (const char* name : {"softmax_bwd", "quant_int8", "wvar_bwd"}) {
    INFO(name);
    const WorkloadInfo& w = find_workload(name);
    const HostProblem p = make_random_problem(w, 9, 300001, 5);  // 2.7 M elements: split over threads
    const Reference64 all = reference64(p);
    for (long long r : {0LL, 4LL, 8LL}) {
      INFO("row " << r);
      const Reference64 alone = reference64(one_row(p, r));
      for (size_t k = 0; k < all.out.size(); ++k)
        CHECK(std::equal(alone.out[k].begin(), alone.out[k].end(), all.out[k].begin() + r * p.n));
      for (size_t k = 0; k < all.row_out.size(); ++k) CHECK(alone.row_out[k][0] == all.row_out[k][size_t(r)]);
    }
  }
}
