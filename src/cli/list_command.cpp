#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/workload_registry.hpp"
#include "io/text_table.hpp"
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
  using io::TextTable;
  const auto& ws = all_workloads();
  // The count comes from the registry, so that no text states a number of workloads that can go stale.
  fmt::print("{} workloads (reduction reuse: what calibration, the time model and the default sweeps cover)\n",
             ws.size());
  TextTable t({{"workload", TextTable::Align::left}, {"L"}, {"q"}, {"Q"}, {"s"}, {"b_keep"}, {"S_scratch"},
               {"b_reread"}, {"D_fixed/row"}, {"compulsory"}, {"structure", TextTable::Align::left}},
              "  ");
  t.units({"", "", "", "", "B", "B/elem", "B", "B/elem", "B", "B/elem", ""});
  for (const auto& w : ws) {
    const auto& f = w.figures;
    t.row({w.name, std::to_string(f.L), join_q(f.q), std::to_string(f.Q), std::to_string(f.s), std::to_string(f.b_keep),
           std::to_string(f.s_scratch), std::to_string(f.b_reread), fmt::format("{}N+{}", f.compulsory, f.row_scalar_bytes),
           std::to_string(f.compulsory), structure_name(f.structure)});
  }
  fmt::print("{}", t.str());
  fmt::print("\nL: stages of statistics; q: statistics per stage; Q: their sum; s: bytes per statistic; b_keep: bytes "
             "per element a CTA keeps on chip between stages; S_scratch: shared memory per CTA, for a cluster of up to "
             "16 CTAs.\n"
             "b_reread: bytes per element the one-CTA global-reread schedule reads again (the staged one none); "
             "D_fixed/row: bytes every schedule moves per row of N elements; compulsory: bytes per element read once "
             "and written once; column parameters (LayerNorm's gamma, beta) are shared by all rows and not counted.\n");
}

// The negative controls: what they compute, which kernels bench runs them on, and the rule that
// turns them away from predict and run-sweep.
void print_negative_controls() {
  using io::TextTable;
  const auto& cs = negative_controls();
  fmt::print("\n{} negative controls: nothing for a cluster to reuse; predict and run-sweep reject them by rule.\n",
             cs.size());
  TextTable t({{"workload", TextTable::Align::left}, {"structure", TextTable::Align::left},
               {"bench kernels", TextTable::Align::left}, {"computes", TextTable::Align::left}},
              "  ");
  for (const auto& w : cs)
    t.row({w.name, structure_name(w.figures.structure),
           w.not_split_row.empty() ? "staged, global_reread, cluster" : "none", w.math});
  fmt::print("{}", t.str());
  for (const auto& w : cs) {
    fmt::print("{}: rejected: {}\n", w.name, model::structural_rejection(w.figures).value_or("?"));
    if (!w.not_split_row.empty()) fmt::print("{}: no kernel: {}\n", w.name, w.not_split_row);
  }
}

void run_list() {
  print_workloads();
  print_negative_controls();
}

}  // namespace

void add_list_command(CLI::App& app, GlobalOptions& /*g: list takes no global option but --log-level*/) {
  auto* cmd = app.add_subcommand("list", "list the workloads, their static figures and the negative controls (no GPU needed)");
  cmd->callback(run_list);  // --json and --device are refused before it runs (src/main.cpp's kGlobalUse)
}

}  // namespace credit::cli
