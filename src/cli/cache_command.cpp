// credit cache: the tuning cache that `credit tune` fills (tuning/tuning_cache.hpp). list shows its entries,
// export writes them to a file another machine can import, import merges such a file in, clear empties it.
// It works on the cache of the GPU in use (keyed by its UUID), or on the file --tuning names.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "cli/cli_log.hpp"
#include "cli/commands.hpp"
#include "cli/output_paths.hpp"
#include "gpu/device/device_query.hpp"
#include "io/text_table.hpp"
#include "sweep/selection.hpp"
#include "tuning/tuning_cache.hpp"

namespace credit::cli {

namespace {

struct CacheArgs {
  std::string action, file, tuning;
};

// The cache file rewritten by import and clear: a file of its own, re-read under its lock.
constexpr const char* kRewritten = "the tuning cache is re-read and rewritten under its lock";

void print_entries(std::FILE* out, const std::filesystem::path& file, const std::vector<TuningEntry>& entries) {
  fmt::print(out, "{}: {} tuned shape(s)\n", file.string(), entries.size());
  if (entries.empty()) return;
  using io::TextTable;
  TextTable t({{"workload", TextTable::Align::left}, {"dtype", TextTable::Align::left}, {"M"}, {"N"},
               {"pick", TextTable::Align::left}, {"ms"}, {"timed"}, {"measured", TextTable::Align::left},
               {"GPU", TextTable::Align::left}, {"build", TextTable::Align::left}});
  for (const auto& e : entries)
    t.row({e.key.workload, e.key.dtype, std::to_string(e.key.m), std::to_string(e.key.n),
           candidate_label(e.pick.schedule, e.pick.p), fmt::format("{:.4f}", e.pick.ms), std::to_string(e.timed.size()),
           e.utc_time.substr(0, 10), e.gpu_name + " " + e.gpu_uuid,
           e.build.git_sha + (e.build.build_defines.empty() ? "" : " " + e.build.build_defines)});
  fmt::print(out, "{}", t.str());
}

// The file the action works on: --tuning, else the cache of the GPU in use (exit 3 without one).
std::filesystem::path cache_file(const CacheArgs& a, const GlobalOptions& g) {
  if (!a.tuning.empty()) return a.tuning;
  const DeviceInfo dev = gpu::use_device(g.device);
  try {
    return tuning_cache_path(dev.uuid);
  } catch (const std::exception& e) {
    throw CommandFailed(std::string("no tuning cache for this GPU: ") + e.what(), kExitFailed);
  }
}

void check_arguments(const CacheArgs& a) {
  const bool takes_file = a.action == "export" || a.action == "import";
  if (takes_file && a.file.empty()) throw CommandFailed("cache " + a.action + " needs a FILE", kExitBadInput);
  if (!takes_file && !a.file.empty())
    throw CommandFailed("cache " + a.action + " takes no FILE (got " + a.file + ")", kExitBadInput);
  if (a.action == "list" || a.action == "export")
    prepare_outputs({a.tuning}, {{a.action == "export" ? "export" : "", a.file}});
  else
    prepare_outputs({a.file}, {{"--tuning", a.tuning, kRewritten}});
}

void run_cache(const CacheArgs& a, const GlobalOptions& g) {
  check_arguments(a);
  const std::filesystem::path file = cache_file(a, g);
  const Log log = spdlog_log();
  if (a.action == "list") return print_entries(table_stream(), file, load_tuning(file, log));
  if (a.action == "export") {
    const auto entries = load_tuning(file, log);
    write_output(a.file, format_tuning(entries));
    spdlog::info("{} tuned shape(s) of {} written to {}", entries.size(), file.string(), a.file);
    return;
  }
  if (a.action == "clear") {
    const std::size_t held = clear_tuning(file, log);
    spdlog::info("{}: {} tuned shape(s) removed", file.string(), held);
    return;
  }
  std::size_t read = 0;
  try {
    read = import_tuning(file, a.file, log);
  } catch (const std::exception& e) {
    throw CommandFailed(fmt::format("cache import {}: {}", a.file, e.what()), kExitBadInput);
  }
  spdlog::info("{} tuned shape(s) of {} merged into {}", read, a.file, file.string());
}

}  // namespace

void add_cache_command(CLI::App& app, GlobalOptions& g) {
  static CacheArgs a;
  auto* cmd = app.add_subcommand("cache", "the tuning cache credit tune fills: list, export FILE, import FILE, "
                                          "clear (of the GPU in use, or of --tuning FILE)");
  cmd->add_option("action", a.action, "list, export, import or clear")
      ->required()
      ->check(CLI::IsMember({"list", "export", "import", "clear"}));
  cmd->add_option("file", a.file, "export: the file to write (- for stdout); import: the file to merge in");
  cmd->add_option("--tuning", a.tuning, "work on this tuning cache file instead of the GPU's (no GPU needed)");
  cmd->callback([&g] { run_cache(a, g); });
}

}  // namespace credit::cli
