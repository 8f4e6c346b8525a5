#include "calibration/placement.hpp"

#include <map>

namespace credit::gpu {

std::string placement_problem(const std::vector<std::uint32_t>& smids, int p) {
  if (p < 1 || smids.size() % size_t(p) != 0)
    return std::to_string(smids.size()) + " CTAs do not form clusters of " + std::to_string(p);
  for (size_t c = 0; c < smids.size(); c += size_t(p)) {
    std::map<std::uint32_t, size_t> first;  // SM -> first CTA of this cluster seen on it
    for (size_t i = c; i < c + size_t(p); ++i) {
      if (smids[i] == kNoSmid) return "CTA " + std::to_string(i) + " did not record its SM";
      const auto [it, fresh] = first.emplace(smids[i], i);
      if (!fresh)
        return "cluster " + std::to_string(c / size_t(p)) + ": CTAs " + std::to_string(it->second) + " and " +
               std::to_string(i) + " both ran on SM " + std::to_string(smids[i]);
    }
  }
  return "";
}

void require_distinct_sms(const std::vector<std::uint32_t>& smids, int p, const std::string& what) {
  const std::string problem = placement_problem(smids, p);
  if (!problem.empty())
    throw PlacementError(what + ": refused, the CTAs of a cluster must run on distinct SMs (" + problem + ")");
}

}  // namespace credit::gpu
