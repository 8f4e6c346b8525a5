#include <stdexcept>
#include <string>

#include "core/split.hpp"
#include "credit/schedule.hpp"

namespace credit {

namespace {
using S = Schedule;
constexpr ScheduleTraits kTraits[] = {
    // id              name              split                 smem   cluster candidate phases registers partial
    {S::Staged,        "staged",         Split::OneCta,         true,  false, true,  true,  -1, 0},
    {S::GlobalReread,  "global_reread",  Split::OneCta,         false, false, true,  false, -1, 0},
    {S::Cluster,       "cluster",        Split::Cluster,        true,  true,  true,  true,  -1, 0},
    {S::Megakernel,    "megakernel",     Split::Global,         true,  false, false, true,  -1, 0},
    {S::LocalFusion,   "local_fusion",   Split::Global,         false, false, false, false, -1, 0},
    {S::Unfused,       "unfused",        Split::Global,         false, false, false, false, -1, 0},
    {S::Registers,     "registers",      Split::OneCta,         false, false, true,  false, int(RegisterFamily::Wide), 0},
    {S::Partial,       "partial",        Split::LargestCluster, true,  true,  true,  true,  -1, kPartialCtasPerSm},
    {S::RegistersDeep, "registers_deep", Split::OneCta,         false, false, true,  false, int(RegisterFamily::Deep), 0},
    {S::PartialOne,    "partial_one",    Split::LargestCluster, true,  true,  true,  true,  -1, kPartialOneCtasPerSm},
    {S::ClusterRegisters, "cluster_registers", Split::Cluster, false, true,  true,  false, int(RegisterFamily::Cluster), 0},
    // a candidate: its exchange term fitted on a wide-row bench (2026-12-05) and judged on two held-out sweeps,
    // where an a-priori term had failed one.
    {S::SplitGlobal,   "split_global",   Split::Spread,         true,  false, true,  true,  -1, 0},
};
constexpr bool in_enum_order() {
  for (int i = 0; i < int(std::size(kTraits)); ++i)
    if (int(kTraits[i].id) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kTraits lists the schedules in the enum's order");
}  // namespace

std::span<const ScheduleTraits> schedule_traits() { return kTraits; }

const ScheduleTraits& traits_of(Schedule s) { return kTraits[int(s)]; }

const char* schedule_name(Schedule s) { return traits_of(s).name; }

const ScheduleTraits* find_schedule(std::string_view name) {
  for (const auto& t : kTraits)
    if (name == t.name) return &t;
  return nullptr;
}

std::string known_schedules() {
  std::string known;
  for (const auto& t : kTraits) known += (known.empty() ? "" : ", ") + std::string(t.name);
  return known;
}

Schedule parse_schedule(std::string_view s) {
  if (const ScheduleTraits* t = find_schedule(s)) return t->id;
  throw std::invalid_argument("unknown schedule '" + std::string(s) + "' (known: " + known_schedules() + ")");
}

bool takes_p(Schedule s, int p) {
  switch (traits_of(s).split) {
    case Split::OneCta: return p == 1;
    case Split::Cluster: return is_cluster_size(p);
    case Split::LargestCluster: return p == kPartialClusterSize;
    case Split::Global: return p >= 1 && p <= kMaxGlobalSplit;
    case Split::Spread: return is_spread_split(p);
  }
  return false;
}

std::vector<int> ps_to_time(Schedule s, const std::vector<int>& cluster_sizes, const std::vector<int>& splits) {
  const Split k = traits_of(s).split;
  if (k == Split::OneCta) return {1};
  std::vector<int> out;
  for (int p : k == Split::Global || k == Split::Spread ? splits : cluster_sizes)
    if (takes_p(s, p)) out.push_back(p);
  return out;
}

}  // namespace credit
