// The static figures derived from the declarations against DESIGN.md's table, written out
// here as literals so that a declaration change that moves a figure is caught. Also the
// registry's error path and the slice arithmetic every schedule shares.
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"

namespace {

struct Expected {
  const char* name;
  std::vector<int> q;  // statistics per stage
  int b_keep, compulsory, b_reread, row_scalar_bytes;
};

// DESIGN.md section 1 (retained, compulsory bytes/elem; stages) and section 3 (b_reread: the
// bytes each stage and apply read, minus every input read once). Row scalars: gv, gr, scale.
const std::vector<Expected> kTable = {
    {"layernorm", {1, 1}, 4, 8, 8, 0},
    {"wvar_bwd", {2, 1}, 8, 16, 16, 4},
    {"pearson_bwd", {2, 3}, 8, 16, 16, 4},
    {"softmax_bwd", {1, 2}, 8, 12, 12, 0},
    {"lars", {2}, 8, 20, 8, 0},
    {"quant_int8", {1}, 4, 5, 4, 4},
    {"rms_softmax", {2, 1}, 4, 8, 8, 0},
};

}  // namespace

TEST_CASE("static figures match DESIGN.md's table", "[figures]") {
  const auto& all = credit::all_workloads();
  REQUIRE(all.size() == kTable.size());
  for (const Expected& e : kTable) {
    INFO("workload " << e.name);
    const credit::StaticFigures& f = credit::find_workload(e.name).figures;
    CHECK(f.structure == credit::Structure::ReductionReuse);
    CHECK(f.L == int(e.q.size()));
    CHECK(f.q == e.q);
    int Q = 0;
    for (int q : e.q) Q += q;
    CHECK(f.Q == Q);
    CHECK(f.s == 4);
    CHECK(f.K() == 2 * f.L);
    CHECK(f.b_keep == e.b_keep);
    CHECK(f.compulsory == e.compulsory);
    CHECK(f.b_reread == e.b_reread);
    CHECK(f.row_scalar_bytes == e.row_scalar_bytes);
    CHECK(f.s_scratch > 0);
    // S_scratch = 4 (L warps q_max + 16 Q, rounded up to even) + 8 B x (16 + L) mbarriers + 8 b_keep,
    // warps = threads / 32 (a build option): layernorm at 256 threads 4 (2*8*1 + 16*2) + 144 + 32.
    const long w8 = credit::SplitPolicy::warps;
    if (e.name == std::string("layernorm")) CHECK(f.s_scratch == 4 * (2 * w8 + 32) + 144 + 32);
    if (e.name == std::string("pearson_bwd")) CHECK(f.s_scratch == 4 * (2 * w8 * 3 + 80) + 144 + 64);
    for (double n : {1.0, 4096.0, 50257.0})
      CHECK(f.d_fixed(n) == n * e.compulsory + e.row_scalar_bytes);
  }
}

TEST_CASE("find_workload names the known workloads when it fails", "[figures]") {
  CHECK(credit::find_workload("rms_softmax").name == "rms_softmax");
  CHECK_THROWS_AS(credit::find_workload("nosuch"), std::invalid_argument);
  std::string message;
  try {
    credit::find_workload("nosuch");
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  INFO("message: " << message);
  CHECK(message.find("nosuch") != std::string::npos);
  for (const Expected& e : kTable) CHECK(message.find(e.name) != std::string::npos);
}

TEST_CASE("slices partition the row into aligned pieces", "[figures]") {
  std::vector<int> widths;
  for (int n = 1; n <= 130; ++n) widths.push_back(n);  // includes every N < P
  for (int n : {1000, 4095, 4096, 4097, 50257, 65536, 128256, 151936, 262144}) widths.push_back(n);
  for (int n : widths) {
    for (int p = 1; p <= credit::SplitPolicy::max_cluster; ++p) {
      INFO("N=" << n << " P=" << p);
      const int per = (n + p - 1) / p;
      int next = 0;  // slices are in order, so each starts where the previous ended
      for (int c = 0; c < p; ++c) {
        const credit::Slice s = credit::slice_of(n, p, c);
        CAPTURE(c, s.lo, s.hi);
        REQUIRE(s.lo == next);
        REQUIRE(s.lo <= s.hi);
        if (s.hi > s.lo) REQUIRE(s.lo % credit::SplitPolicy::vec == 0);  // 16-byte aligned
        // A slice fits its plane, and the plane exceeds ceil(N/P) by at most the 7 floats
        // of slack that scratch_bytes budgets for (so Eq. 3 stays truthful).
        REQUIRE(s.hi - s.lo <= credit::plane_floats(n, p));
        REQUIRE(credit::plane_floats(n, p) <= per + 7);
        next = s.hi;
      }
      REQUIRE(next == n);
    }
  }
}
