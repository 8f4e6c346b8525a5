// report until it is built: it says so plainly and fail, never pretend.
#include "cli/commands.hpp"

namespace credit::cli {

namespace {

[[noreturn]] void not_implemented(const std::string& what) {
  throw CommandFailed("'credit " + what + "' is not implemented yet; nothing was measured", 2);
}

}  // namespace

void add_pending_commands(CLI::App& app, GlobalOptions&) {
  app.add_subcommand("report", "tables and figures from results JSON (not implemented yet)")
      ->callback([] { not_implemented("report"); });
}

}  // namespace credit::cli
