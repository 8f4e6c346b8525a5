#pragma once
// A recorded sweep point built by hand for a test: what identifies it, its disposition and its median time. Each test
// sets what else it needs (the whole Stat, bytes, submission) on the copy it gets.
#include <string>

#include "core/sweep_point.hpp"

namespace credit::test {

inline SweepPoint sweep_point(const std::string& workload, long long m, long long n, const std::string& schedule, int p,
                              double median_ms, Disposition d = Disposition::Passed) {
  SweepPoint x;
  x.workload = workload;
  x.m = m;
  x.n = n;
  x.schedule = schedule;
  x.p = p;
  x.disposition = d;
  x.time_ms.median = median_ms;
  return x;
}

}  // namespace credit::test
