#include "traffic/traffic_table.hpp"

#include <fmt/format.h>

#include "core/dram_traffic.hpp"

namespace credit::traffic {

std::string traffic_table(const std::vector<SweepPoint>& points) {
  std::string rows;
  int over = 0;
  for (const auto& p : points) {
    if (!p.dram) continue;
    const dram::PerElement e = dram::per_element(p);
    over += e.over_model;
    rows += fmt::format("{:<12} {:>6} {:>7} {:<14} {:>2} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>8.3f}{}\n",
                        p.workload, p.m, p.n, p.schedule, p.p, e.read, e.write, e.total, e.model, e.compulsory,
                        e.reread, e.total / e.model, e.over_model ? "  over model" : "");
  }
  if (rows.empty()) return "";
  return fmt::format("\nDRAM bytes per element, measured by Nsight Compute (L2 emptied before the launch, drained after it); "
                     "model = compulsory + re-read (static figures); 'over model': measured > {:.2f} x model\n",
                     dram::kOverModel) +
         fmt::format("{:<12} {:>6} {:>7} {:<14} {:>2} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8}\n", "workload", "M", "N",
                     "schedule", "P", "read", "write", "total", "model", "compul.", "re-read", "meas/mod") +
         rows + fmt::format("{} kernel(s) over their model\n", over);
}

}  // namespace credit::traffic
