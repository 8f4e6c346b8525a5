#include <stdexcept>
#include <string>

#include "credit/schedule.hpp"

namespace credit {

namespace {
constexpr Schedule kAll[] = {Schedule::Staged,      Schedule::GlobalReread, Schedule::Cluster, Schedule::Megakernel,
                             Schedule::LocalFusion, Schedule::Unfused,      Schedule::Registers,
                             Schedule::Partial};
}

const char* schedule_name(Schedule s) {
  switch (s) {
    case Schedule::Staged: return "staged";
    case Schedule::GlobalReread: return "global_reread";
    case Schedule::Cluster: return "cluster";
    case Schedule::Megakernel: return "megakernel";
    case Schedule::LocalFusion: return "local_fusion";
    case Schedule::Unfused: return "unfused";
    case Schedule::Registers: return "registers";
    case Schedule::Partial: return "partial";
  }
  return "?";
}

Schedule parse_schedule(std::string_view s) {
  std::string known;
  for (auto k : kAll) {
    if (s == schedule_name(k)) return k;
    known += (known.empty() ? "" : ", ") + std::string(schedule_name(k));
  }
  throw std::invalid_argument("unknown schedule '" + std::string(s) + "' (known: " + known + ")");
}

}  // namespace credit
