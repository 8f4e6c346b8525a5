#include <algorithm>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/workload_registry.hpp"
#include "model/profitability.hpp"

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

void print_workloads() {
  std::size_t name_w = 12;  // the longest declared name sets the first column
  for (const auto& w : all_workloads()) name_w = std::max(name_w, w.name.size());
  fmt::print("{:<{}} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}  {}\n", "workload", name_w, "L", "q",
             "Q", "s", "b_keep", "S_scratch", "b_reread", "D_fixed/row", "compulsory", "structure");
  fmt::print("{:<{}} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}\n", "", name_w, "", "", "",
             "B", "B/elem", "B", "B/elem", "B", "B/elem");
  for (const auto& w : all_workloads()) {
    const auto& f = w.figures;
    fmt::print("{:<{}} {:>2} {:>6} {:>2} {:>2} {:>7} {:>10} {:>9} {:>15} {:>11}  {}\n", w.name, name_w, f.L,
               join_q(f.q), f.Q, f.s, f.b_keep, f.s_scratch, f.b_reread,
               fmt::format("{}N+{}", f.compulsory, f.row_scalar_bytes), f.compulsory,
               structure_name(f.structure));
  }
  fmt::print("\nb_reread: bytes per element the one-CTA global-reread schedule reads again; "
             "the staged schedule re-reads none.\nS_scratch counts a cluster of up to 16 CTAs; "
             "column parameters (LayerNorm's gamma, beta) are shared by all rows and not counted.\n");
}

// The negative controls: what they compute, which kernels bench runs them on, and the rule that
// turns them away from predict and run-sweep.
void print_negative_controls() {
  fmt::print("\nNegative controls: nothing for a cluster to reuse; predict and run-sweep reject them by rule.\n");
  fmt::print("{:<16} {:<19} {:<31} {}\n", "workload", "structure", "bench kernels", "computes");
  for (const auto& w : negative_controls())
    fmt::print("{:<16} {:<19} {:<31} {}\n", w.name, structure_name(w.figures.structure),
               w.not_split_row.empty() ? "staged, global_reread, cluster" : "none", w.math);
  for (const auto& w : negative_controls()) {
    fmt::print("{}: rejected: {}\n", w.name, model::structural_rejection(w.figures).value_or("?"));
    if (!w.not_split_row.empty()) fmt::print("{}: no kernel: {}\n", w.name, w.not_split_row);
  }
}

void run_list() {
  print_workloads();
  print_negative_controls();
}

}  // namespace

void add_list_command(CLI::App& app, GlobalOptions& g) {
  auto* cmd = app.add_subcommand("list", "list the workloads, their static figures and the negative controls (no GPU needed)");
  cmd->callback([&g] {
    if (!g.json_path.empty()) throw CommandFailed("--json: list writes no JSON (its table is on stdout)", kExitBadInput);
    run_list();
  });
}

}  // namespace credit::cli
