#pragma once
// An A/B of two builds (or two settings) timed on one machine: B's median time over A's at every point both passed,
// matched by workload, M, N, schedule and P, with geometric means overall, per P, per schedule and per shape, and
// of each (workload, M, N, schedule)'s best P. Host code, no GPU: `credit compare --a FILE... --b FILE...`.
#include <cstddef>
#include <string>
#include <vector>

#include "core/results_meta.hpp"
#include "core/sweep_point.hpp"

namespace credit {

struct AbPoint {
  std::string workload;
  long long m = 0, n = 0;
  std::string schedule;  // with a ladder rung's variant ("+...") and graph replay ("@graph") where it has them
  int p = 1;
  double a_ms = 0, b_ms = 0;
  double ratio() const { return b_ms / a_ms; }
};

struct AbGroup {
  std::string label;
  std::size_t points = 0;
  double geomean = 0;  // of B / A
};

struct AbComparison {
  std::vector<AbPoint> points;     // passed in both, by workload, M, N, schedule, P
  std::size_t a_only = 0, b_only = 0;  // passed on one side only
  double geomean = 0, min = 0, max = 0;
  std::vector<AbGroup> by_p, by_schedule, by_shape;
  AbGroup best_p;  // B's best P over A's best P per (workload, M, N, schedule)
  double best_p_max = 0;       // the largest of those ratios (what a rule bounding any one shape's loss reads)
  std::string best_p_max_at;   // where: "workload MxN schedule"
};

// The points of `a` and `b` (each several files' points, concatenated) that passed, restricted to `schedule` when it
// is not empty; a point recorded twice on one side keeps its faster median. Throws std::invalid_argument when no
// point passed on both sides.
AbComparison compare_ab(const std::vector<SweepPoint>& a, const std::vector<SweepPoint>& b,
                        const std::string& schedule);

// What one side's files were built with (Meta::build_defines), each distinct value once, in order, joined by " | ":
// "the defaults", the definitions, or "not recorded" (a file written before they were recorded).
std::string describe_builds(const std::vector<Meta>& metas);

// The A/B's summary, and B's five slowest points against A.
std::string format_ab(const AbComparison& c);

// One schedule against every other candidate in the same files (a new schedule's first bench): per (workload, M, N)
// where it passed, its best P's time beside the fastest other candidate's (schedule and P: what the selector could
// pick instead, model::is_candidate_point; never a work-free control, the copy floor or a torch / Triton peer), the
// points both sides passed only, by direct launch.
struct VersusRow {
  std::string workload;
  long long m = 0, n = 0;
  int p = 0;              // the schedule's fastest P
  double ms = 0;
  std::string other;      // the fastest other candidate, "schedule P=p"
  double other_ms = 0;
  double speedup() const { return other_ms / ms; }  // above 1: the schedule is faster
};
// Rows by workload, M, N; shapes where the schedule or no other candidate passed are left out. Throws
// std::invalid_argument for a schedule credit does not have (naming the known ones) and when no shape has both.
std::vector<VersusRow> versus_others(const std::vector<SweepPoint>& points, const std::string& schedule);
// One line per shape, then the geomean speed-up and the shapes where the schedule is faster by `margin` or more.
std::string format_versus(const std::string& schedule, const std::vector<VersusRow>& rows, double margin);

}  // namespace credit
