// credit: should a row-wise operator split its rows across a thread-block cluster?
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "cli/commands.hpp"
#include "gpu/device_query.hpp"

int main(int argc, char** argv) {
  CLI::App app{"credit: clustered reduction-reuse over DSMEM on Hopper GPUs -- measure, predict, compare"};
  app.set_version_flag("--version", std::string("credit ") + CREDIT_VERSION + " (" + CREDIT_GIT_SHA + ")");
  credit::cli::GlobalOptions g;
  g.argv.assign(argv, argv + argc);
  app.add_option("--device", g.device, "CUDA device ordinal")->capture_default_str();
  app.add_option("--log-level", g.log_level, "trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str();
  app.add_option("--json", g.json_path, "write the results as JSON to this path");
  app.require_subcommand(1);
  app.parse_complete_callback([&] { spdlog::set_level(spdlog::level::from_str(g.log_level)); });

  credit::cli::add_list_command(app, g);
  credit::cli::add_bench_command(app, g);
  credit::cli::add_predict_command(app, g);
  credit::cli::add_run_sweep_command(app, g);
  credit::cli::add_calibrate_command(app, g);
  credit::cli::add_report_command(app, g);
  credit::cli::add_fit_model_command(app, g);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const credit::cli::CommandFailed& e) {
    spdlog::error("{}", e.what());
    return e.exit_code;
  } catch (const credit::gpu::NoGpu& e) {
    spdlog::error("{}", e.what());
    return 3;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
  return 0;
}
