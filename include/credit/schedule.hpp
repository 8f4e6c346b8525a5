#pragma once
// The schedules a credit kernel can run a row-wise operator with (docs/design.md section 2), and
// their traits: one table (src/core/schedule.cpp) that the launcher, the sweep, the time model and
// the CLI read instead of each switching over the schedules.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace credit {

// Staged, GlobalReread, Registers: one CTA per row (P = 1). Cluster: P in {2, 4, 8, 16} CTAs of a
// thread-block cluster per row, statistics through DSMEM. Megakernel, LocalFusion, Unfused (seed
// 001, rms_softmax only for Unfused): P = 1..64 CTAs per row, partials through global memory.
// Partial: P = 16, the clustered kernel keeping part of each slice in shared memory and
// streaming the rest at every phase (rows too wide to keep whole at two CTAs per SM).
// PartialOne: the same kernel keeping as much as one CTA per SM holds (streams less, overlaps
// nothing on its SM; rows too wide for a cluster of 16 to keep whole).
// Registers, RegistersDeep: the row in registers, many threads or fewer deeper ones (core/split.hpp).
// ClusterRegisters: P in {2, 4, 8, 16} CTAs of a cluster per row, each holding its slice in registers
// (no shared-memory staging), statistics through DSMEM.
// SplitGlobal: P in {2, 4, ..., 128} CTAs per row, no cluster, each keeping its whole slice in shared
// memory, partials through global memory at a row-scoped barrier, one ordinary launch of rows x P
// CTAs seated in the order they start (rows too wide for a cluster of 16 to keep whole).
enum class Schedule {
  Staged, GlobalReread, Cluster, Megakernel, LocalFusion, Unfused, Registers, Partial, RegistersDeep, PartialOne,
  ClusterRegisters, SplitGlobal
};

// Which P (CTAs per row) a schedule takes.
enum class Split {
  OneCta,       // P = 1
  Cluster,      // a cluster size: 2, 4, 8, 16
  LargestCluster,  // the largest cluster size only (16)
  Global,       // 1 .. 64, partials through global memory
  Spread,       // a power of two 2 .. 128, partials through global memory
};

struct ScheduleTraits {
  Schedule id;
  const char* name;
  Split split;
  bool dynamic_smem;    // requests its slice's shared memory at launch (Eq. 3, or partial's share)
  bool cluster_launch;  // launched with a cluster dimension: exactly the schedules that split a row over a cluster
  bool candidate;       // the time model predicts it, a sweep times it, the selector may pick it
  bool phase_marks;     // one launch of the split-row kernel, which can record its phase timeline
  int register_family;  // -1, or the RegisterFamily (core/split.hpp) of a register-resident kernel (its variant
                        // is chosen by register_width(n, P))
  int partial_ctas;     // 0, or the CTAs per SM a partial-retention schedule sizes its kept part for
};

// Every schedule, in the enum's order.
std::span<const ScheduleTraits> schedule_traits();
const ScheduleTraits& traits_of(Schedule s);

// "staged", "global_reread", "cluster", "megakernel", "local_fusion", "unfused", "registers", "partial",
// "registers_deep", "partial_one", "cluster_registers", "split_global".
const char* schedule_name(Schedule s);
Schedule parse_schedule(std::string_view s);  // throws std::invalid_argument naming the known ones
std::string known_schedules();  // every name, comma-separated, in the enum's order
const ScheduleTraits* find_schedule(std::string_view name);  // nullptr for any other name ("copy", a peer)

// Whether the schedule takes p CTAs per row; the P a sweep times for it, given the cluster sizes
// and global splits asked for.
bool takes_p(Schedule s, int p);
std::vector<int> ps_to_time(Schedule s, const std::vector<int>& cluster_sizes, const std::vector<int>& splits);

}  // namespace credit
