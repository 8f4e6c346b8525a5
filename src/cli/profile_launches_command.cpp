// credit profile-launches (hidden): what `bench --traffic` and a sweep's "traffic" run under
// Nsight Compute (traffic/profile_traffic.hpp). Launches each target once inside a profiled range
// and writes the manifest that says which targets were launched.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/profiled_launches.hpp"
#include "cli/output_paths.hpp"
#include "traffic/launch_plan.hpp"

namespace credit::cli {

namespace {

struct ProfileArgs {
  std::vector<std::string> targets;
  std::string manifest;
  std::uint64_t seed = 20261129;
};

void run_profile_launches(const ProfileArgs& a, const GlobalOptions& g) {
  std::vector<traffic::LaunchTarget> targets;
  for (const auto& t : a.targets) targets.push_back(traffic::parse_target(t));  // bad input: before the GPU
  check_outputs({}, {{"--manifest", a.manifest, "the manifest is read back by the command that runs this one"}});
  const DeviceInfo dev = gpu::use_device(g.device);
  write_output(a.manifest, traffic::format_manifest(gpu::run_profiled_launches(targets, dev, a.seed)));
}

}  // namespace

void add_profile_launches_command(CLI::App& app, GlobalOptions& g) {
  static ProfileArgs a;
  auto* cmd = app.add_subcommand("profile-launches", "internal: the process bench --traffic runs under ncu");
  cmd->group("");  // hidden from --help: not a command for people
  cmd->add_option("--manifest", a.manifest, "where to write which targets were launched")->required();
  cmd->add_option("--seed", a.seed, "input seed")->check(kNonNegativeInteger)->capture_default_str();
  cmd->add_option("targets", a.targets, "WORKLOAD:MxN:SCHEDULE:P, in order");
  cmd->callback([&g] { run_profile_launches(a, g); });
}

}  // namespace credit::cli
