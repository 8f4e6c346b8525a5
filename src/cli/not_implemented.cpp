#include <spdlog/spdlog.h>

#include "cli/commands.hpp"
#include "core/shape.hpp"
#include "core/workload_registry.hpp"

namespace credit::cli {

namespace {

[[noreturn]] void not_implemented(const std::string& what) {
  throw CommandFailed("'credit " + what + "' is not implemented yet; nothing was measured", 2);
}

}  // namespace

void add_pending_commands(CLI::App& app, GlobalOptions&) {
  auto* predict = app.add_subcommand("predict", "profitability prediction per cluster size (not implemented yet)");
  static std::string workload, shape;
  predict->add_option("--workload", workload, "workload name (see credit list)")->required();
  predict->add_option("--shape", shape, "MxN, e.g. 4096x65536")->required();
  predict->callback([] {
    find_workload(workload);  // bad input is reported as such before anything else
    parse_shape(shape);
    not_implemented("predict");
  });

  app.add_subcommand("run-sweep", "the paper's sweep with predictions (not implemented yet)")
      ->callback([] { not_implemented("run-sweep"); });
  app.add_subcommand("report", "tables and figures from results JSON (not implemented yet)")
      ->callback([] { not_implemented("report"); });
}

}  // namespace credit::cli
