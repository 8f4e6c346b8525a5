#pragma once
// A measured quantity over repeated runs: its median, extremes and the number of runs.

namespace credit {

struct Stat {
  double median = 0, min = 0, max = 0;
  int runs = 0;
};

}  // namespace credit
