#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/workload_registry.hpp"

namespace credit::cli {

namespace {

std::string join_q(const std::vector<int>& q) {
  std::string s;
  for (size_t i = 0; i < q.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(q[i]);
  }
  return s;
}

void run_list() {
  fmt::print("{:<12} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}\n", "workload", "L", "q",
             "Q", "s", "b_keep", "S_scratch", "b_reread", "D_fixed/row", "compulsory");
  fmt::print("{:<12} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}\n", "", "", "", "",
             "B", "B/elem", "B", "B/elem", "B", "B/elem");
  for (const auto& w : all_workloads()) {
    const auto& f = w.figures;
    fmt::print("{:<12} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}\n", w.name, f.L,
               join_q(f.q), f.Q, f.s, f.b_keep, f.s_scratch, f.b_reread,
               fmt::format("{}N+{}", f.compulsory, f.row_scalar_bytes), f.compulsory);
  }
  fmt::print("\nb_reread: bytes per element the one-CTA global-reread schedule reads again; "
             "the staged schedule re-reads none.\nS_scratch counts a cluster of up to 16 CTAs; "
             "column parameters (LayerNorm's gamma, beta) are shared by all rows and not counted.\n");
}

}  // namespace

void add_list_command(CLI::App& app, GlobalOptions& g) {
  auto* cmd = app.add_subcommand("list", "list the workloads and their static figures (no GPU needed)");
  cmd->callback([&g] {
    if (!g.json_path.empty()) throw CommandFailed("--json: list writes no JSON (its table is on stdout)", 2);
    run_list();
  });
}

}  // namespace credit::cli
