#pragma once
// The schedules a credit kernel can run a row-wise operator with (docs/design.md section 2).
#include <string_view>

namespace credit {

// Staged, GlobalReread, Registers: one CTA per row (P = 1). Cluster: P in {2, 4, 8, 16} CTAs of a
// thread-block cluster per row, statistics through DSMEM. Megakernel, LocalFusion, Unfused (seed
// 001, rms_softmax only for Unfused): P = 1..64 CTAs per row, partials through global memory.
// Partial: P = 16, the clustered kernel keeping part of each slice in shared memory and
// streaming the rest at every phase (rows too wide to keep whole at two CTAs per SM).
enum class Schedule { Staged, GlobalReread, Cluster, Megakernel, LocalFusion, Unfused, Registers, Partial };

// "staged", "global_reread", "cluster", "megakernel", "local_fusion", "unfused", "registers", "partial".
const char* schedule_name(Schedule s);
Schedule parse_schedule(std::string_view s);  // throws std::invalid_argument naming the known ones

}  // namespace credit
