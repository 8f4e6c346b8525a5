#include "runner/python_baselines.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace credit {

std::optional<std::string> run_python_baselines(const std::string& script, const SweepConfig& cfg,
                                                const std::vector<const WorkloadInfo*>& ws,
                                                const std::string& sweep_path, const Log& log) {
  if (std::system("python3 -c 'import torch, triton; assert torch.cuda.is_available()' >/dev/null 2>&1") != 0) {
    log.info("python3 with torch, triton and CUDA not found: torch.compile and Triton baselines skipped");
    return std::nullopt;
  }
  const std::string stem = sweep_path.size() > 5 && sweep_path.ends_with(".json")
                               ? sweep_path.substr(0, sweep_path.size() - 5) : sweep_path;
  const std::string out = stem + "-torch.json";
  std::string names, widths;
  for (const auto* w : ws) {  // the declared names; the script names its records <name>@bf16 in bf16 as credit does
    names += (names.empty() ? "" : ",") + w->declared;
    if (cfg.rows.count(w->declared)) log.warn("torch baselines use each workload's default M, not the config's rows");
  }
  for (long long n : cfg.widths) widths += (widths.empty() ? "" : ",") + std::to_string(n);
  const std::string cmd = fmt::format("python3 '{}' --workloads {} --widths {} --dtype {} --json '{}'", script, names,
                                      widths, element_type_name(cfg.element), out);
  log.info("torch/Triton baselines: {}", cmd);
  const int rc = std::system(cmd.c_str());
  if (rc != 0) log.warn("torch baselines exited with status {} (points that did not pass say why in {})", rc, out);
  return out;
}

}  // namespace credit
