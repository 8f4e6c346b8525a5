// credit bench --phases' summary (sweep/phase_timeline): from synthetic %globaltimer stamps, each mark's time since
// the earliest start and each CTA's step since its previous mark, which a kernel of many waves needs.
#include <stdexcept>
#include <vector>

#include "catch.hpp"
#include "sweep/phase_timeline.hpp"

TEST_CASE("phase timeline: marks from the earliest start, and each CTA's step since its previous mark", "[phases]") {
  // One stage (L = 1): marks start, stage 0 accumulated, stage 0 exchanged, outputs issued; a stride of 6 leaves
  // two unused words per CTA. Three CTAs in two waves: the third starts when the first has finished.
  const int stride = 6;
  const std::vector<unsigned long long> clock = {
      1000, 3000, 4000, 6000, 0, 0,   // CTA 0: steps 2, 1, 2 us
      1000, 2000, 6000, 7000, 0, 0,   // CTA 1: steps 1, 4, 1 us (it waited at the exchange)
      6000, 8000, 9000, 11000, 0, 0,  // CTA 2 (second wave): steps 2, 1, 2 us
  };
  const auto t = credit::phase_timeline(clock, 3, stride, 1);
  REQUIRE(t.size() == 4);
  CHECK(t[0].name == "start");
  CHECK(t[1].name == "stage 0 accumulated");
  CHECK(t[2].name == "stage 0 exchanged");
  CHECK(t[3].name == "outputs issued");
  CHECK(t[0].median_us == 0.0);
  CHECK(t[0].max_us == 5.0);  // the second wave's start
  CHECK(t[2].median_us == 5.0);  // exchanged at 3, 5 and 8 us
  CHECK(t[2].max_us == 8.0);
  CHECK(t[0].step_median_us == 0.0);
  CHECK(t[1].step_median_us == 2.0);  // steps 1, 2, 2
  CHECK(t[2].step_median_us == 1.0);  // steps 1, 1, 4: the waves' absolute times do not blur a CTA's own wait
  CHECK(t[2].step_p90_us == 4.0);
  CHECK(t[3].step_p90_us == 2.0);
  // two stages: five marks between start and outputs, named by stage
  std::vector<unsigned long long> two(6, 0);
  for (int k = 0; k < 6; ++k) two[k] = 100 + 1000ULL * k;
  const auto t2 = credit::phase_timeline(two, 1, 6, 2);
  REQUIRE(t2.size() == 6);
  CHECK(t2[3].name == "stage 1 accumulated");
  CHECK(t2[4].step_median_us == 1.0);
  // a buffer that cannot hold the CTAs' marks, or a stride below them
  CHECK_THROWS_AS(credit::phase_timeline(clock, 4, stride, 1), std::invalid_argument);
  CHECK_THROWS_AS(credit::phase_timeline(clock, 3, 3, 1), std::invalid_argument);
  CHECK_THROWS_AS(credit::phase_timeline(clock, 0, stride, 1), std::invalid_argument);
}
