#pragma once
// What a ladder file (kind "ladder", host completion times) says: per shape, the fastest passed
// point of every rung of seed 001's ladder, the floors, and the Fig. 6 penalties.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/results_file.hpp"
#include "core/sweep_point.hpp"

namespace credit {

struct RungDef {
  const char* label;       // as printed
  const char* schedule;
  const char* submission;  // "direct" or "graph"
  const char* variant;     // megakernel: the barrier ("auto"); else ""
};

// Seed 001's ladder in its order (graph replay stays on from the second rung), then the rungs
// it compares against: the direct megakernel, and CREDIT's clustered DSMEM kernels (slices in shared
// memory, or in registers).
inline constexpr RungDef kLadderRungs[] = {
    {"unfused (9 kernels)", "unfused", "direct", ""},
    {"+ CUDA graph", "unfused", "graph", ""},
    {"+ local fusion (3 kernels)", "local_fusion", "graph", ""},
    {"+ megakernel", "megakernel", "graph", "auto"},
    {"megakernel, direct launch", "megakernel", "direct", "auto"},
    {"local fusion, direct launch", "local_fusion", "direct", ""},
    {"cluster (DSMEM), direct", "cluster", "direct", ""},
    {"cluster (DSMEM), graph", "cluster", "graph", ""},
    {"cluster, slices in registers, direct", "cluster_registers", "direct", ""},
    {"cluster, slices in registers, graph", "cluster_registers", "graph", ""},
};

struct RungResult {
  const RungDef* def = nullptr;
  const SweepPoint* best = nullptr;  // fastest passed point over P; null when none passed
  int passed = 0, total = 0;
  std::vector<std::string> failures;  // "P=8: incorrect: ..." for points that did not pass
};

struct SwitchPenalty {
  std::string barrier;  // "grid" or "row"
  int p = 0;
  std::string submission;
  double base_ms = 0;
  std::map<std::string, double> extra_ms;  // switch set ("reload_input", ...) -> added median
};

struct LadderShapeSummary {
  std::string workload;
  long long m = 0, n = 0;
  std::vector<RungResult> rungs;
  const SweepPoint* best = nullptr;  // fastest passed point of any rung
  std::map<std::string, const SweepPoint*> floors;  // "empty_kernel/direct", "copy/graph", ...
  std::vector<SwitchPenalty> switches;
};

// Shapes in order of (workload, n, m). Pointers point into `r`.
std::vector<LadderShapeSummary> summarize_ladder(const ResultsFile& r);

}  // namespace credit
