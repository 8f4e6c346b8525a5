#pragma once
// Table II's CTAs each have an SM to themselves (paper: "forces its two CTAs onto different
// SMs"). Every microbenchmark CTA records %smid; a run whose cluster put two CTAs on one SM
// is refused: it is an error, never a number.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace credit::gpu {

struct PlacementError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint32_t kNoSmid = 0xffffffffu;  // a CTA that never recorded its SM

// "" when every cluster (p consecutive CTAs, as 1-D clusters are numbered) ran on p distinct
// SMs; otherwise which cluster, which CTAs and which SM. A size not a multiple of p, or a CTA
// that recorded nothing, is a problem too.
std::string placement_problem(const std::vector<std::uint32_t>& smids, int p);

// Throws PlacementError naming `what` when placement_problem finds one.
void require_distinct_sms(const std::vector<std::uint32_t>& smids, int p, const std::string& what);

}  // namespace credit::gpu
