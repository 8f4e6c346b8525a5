#include "runner/bench_runner.hpp"

#include <optional>
#include <stdexcept>

#include "gpu/measure/bench.hpp"
#include "gpu/launch/device_problem.hpp"
#include "gpu/launch/device_fit.hpp"

namespace credit {

long long bench_rows(const BenchPlan& plan, const WorkloadInfo& w) { return plan.rows > 0 ? plan.rows : w.default_rows; }

std::string bench_plan_problem(const BenchPlan& plan, const DeviceInfo& dev) {
  for (const WorkloadInfo* w : plan.workloads)
    for (int n : plan.widths)
      if (std::string why = device_memory_problem(*w, bench_rows(plan, *w), n, dev); !why.empty()) return why;
  return "";
}

void run_bench(const BenchPlan& plan, const DeviceInfo& dev, gpu::Timer& timer, ResultsFile& out,
               const BenchObserver& observe) {
  if (const std::string why = bench_plan_problem(plan, dev); !why.empty()) throw std::invalid_argument(why);
  const std::size_t total = plan.workloads.size() * plan.widths.size();
  std::size_t done = 0;
  for (const WorkloadInfo* w : plan.workloads) {
    for (int n : plan.widths) {
      const long long m = bench_rows(plan, *w);
      const std::uint64_t seed = plan.seed + done;
      std::optional<gpu::DeviceProblem> prob;
      if (w->not_split_row.empty()) prob.emplace(*w, m, n, seed);
      for (Schedule s : plan.schedules)
        for (int p : ps_to_time(s, plan.ps, plan.ps)) {
          out.points.push_back(prob ? gpu::bench_point(*prob, s, p, dev, timer, plan.timing, out.copy_gbps, seed)
                                    : gpu::refused_point(*w, s, p, m, n, dev));
          if (observe.point) observe.point(out.points.back());
          if (plan.phases && observe.phases && out.points.back().disposition == Disposition::Passed &&
              traits_of(s).phase_marks)
            observe.phases(gpu::time_phases(*w, s, p, prob->operands(), dev, timer.stream()));
        }
      ++done;
      if (observe.shape_done) observe.shape_done(done, total, *w, n);
    }
  }
}

}  // namespace credit
