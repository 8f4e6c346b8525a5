// Measured DRAM traffic on the GPU: a copy kernel's bytes, measured by Nsight Compute
// through the same child process as bench --traffic, match what it moves within 2%. Skipped
// (with the reason) where ncu is missing or may not read the counters: a skip in CTest under
// Catch2 v2 and v3 alike (gpu/skip.hpp), never a pass.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gpu/skip.hpp"
#include "traffic/profile_traffic.hpp"

using namespace credit;

TEST_CASE("a copy kernel's measured DRAM bytes are its size within 2%", "[gpu][traffic]") {
  traffic::ProfilerSetup s;
  try {
    s = {traffic::find_ncu(), CREDIT_BINARY, 0, 1};
  } catch (const traffic::ProfilerUnavailable& e) {
    CREDIT_SKIP("no profiler: " << e.what());
  }
  // 256 MiB each way, several times the L2: the bytes cannot stay on chip.
  const long long m = 1024, n = 65536;
  const double bytes = 4.0 * double(m) * double(n);
  std::vector<traffic::TargetResult> r;
  try {
    r = traffic::profile_targets(s, {{"-", m, n, traffic::kCopyTarget, 1}});
  } catch (const traffic::ProfilerUnavailable& e) {
    CREDIT_SKIP("the profiler cannot measure here: " << e.what());
  }
  REQUIRE(r.size() == 1);
  INFO("not measured: " << r[0].skipped);
  REQUIRE(r[0].dram);
  INFO("read " << r[0].dram->read_bytes << " B, written " << r[0].dram->write_bytes << " B, copy of " << bytes << " B");
  CHECK(r[0].dram->kernels == 1);
  CHECK(std::abs(r[0].dram->read_bytes / bytes - 1) <= 0.02);
  CHECK(std::abs(r[0].dram->write_bytes / bytes - 1) <= 0.02);
}
