#pragma once
// A split-row kernel's phase timeline (credit bench --phases) from its CTAs' %globaltimer stamps: for each mark,
// when the CTAs reached it (median and latest, from the earliest CTA start), and how long each CTA took since its
// previous mark (median and 90th percentile over the CTAs). The first reads a one-wave kernel; the second reads a
// kernel of many waves too (split_global, whose rows start as others leave), where the absolute times mix waves:
// a stage's "exchanged" step is the CTA's wait at that exchange.
#include <span>
#include <string>
#include <vector>

namespace credit {

struct PhaseMark {
  std::string name;
  double median_us = 0, max_us = 0;            // since the earliest CTA start
  double step_median_us = 0, step_p90_us = 0;  // per CTA, since its previous mark (0 for the start)
};

// clock[cta * stride + k]: mark k of each CTA (0 start, 1 + 2l stage l accumulated, 2 + 2l stage l exchanged,
// 2L + 1 outputs issued), in ns. Throws std::invalid_argument when the buffer is shorter than ctas x stride, a
// stride cannot hold 2L + 2 marks, or there is no CTA.
std::vector<PhaseMark> phase_timeline(std::span<const unsigned long long> clock, long long ctas, int stride, int stages);

}  // namespace credit
