// The placement check behind Table II: CTAs of one cluster on one SM are refused.
#include <string>
#include <vector>

#include "catch.hpp"
#include "calibration/placement.hpp"

using credit::gpu::kNoSmid;
using credit::gpu::placement_problem;

TEST_CASE("placement check accepts clusters on distinct SMs and refuses shared ones", "[calibrate]") {
  CHECK(placement_problem({3, 7}, 2).empty());
  CHECK(placement_problem({0, 1, 2, 3, 0, 1, 2, 3}, 4).empty());  // clusters may reuse each other's SMs
  const std::string shared = placement_problem({4, 9, 9, 5}, 4);
  CHECK(shared.find("CTAs 1 and 2 both ran on SM 9") != std::string::npos);
  CHECK(placement_problem({1, 2, 6, 6}, 2).find("cluster 1") != std::string::npos);
  CHECK(placement_problem({1, kNoSmid}, 2).find("did not record") != std::string::npos);
  CHECK_FALSE(placement_problem({1, 2, 3}, 2).empty());
  CHECK_THROWS_AS(credit::gpu::require_distinct_sms({5, 5}, 2, "latency"), credit::gpu::PlacementError);
}
