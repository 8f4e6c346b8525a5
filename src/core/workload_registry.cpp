#include "core/workload_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cpu_split_execution.hpp"
#include "core/workloads/all.hpp"

namespace credit {

namespace {

template <class W>
WorkloadInfo info_of() {
  WorkloadInfo w;
  w.name = W::name;
  w.default_rows = W::default_rows;
  for (auto s : W::inputs) w.inputs.emplace_back(s);
  for (auto s : W::col_params) w.col_params.emplace_back(s);
  for (auto s : W::row_params) w.row_params.emplace_back(s);
  for (auto s : W::row_outputs) w.row_outputs.emplace_back(s);
  w.outputs.assign(W::outputs.begin(), W::outputs.end());
  w.combine.assign(W::combine.begin(), W::combine.end());
  if constexpr (requires { W::domains; })
    for (const TensorDomain& d : W::domains) {
      const auto named = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), d.tensor) != v.end(); };
      if (!named(w.inputs) && !named(w.col_params) && !named(w.row_params))
        throw std::logic_error(w.name + " declares a domain for '" + d.tensor + "', which is none of its tensors");
      w.domains.emplace_back(d.tensor, d.domain);
    }
  w.figures = static_figures_of<W>();
  w.cpu_split = &cpu_split_execute<W>;
  return w;
}

}  // namespace

const std::vector<WorkloadInfo>& all_workloads() {
  static const std::vector<WorkloadInfo> list = [] {
    std::vector<WorkloadInfo> v;
    for_each_workload([&](auto w) { v.push_back(info_of<decltype(w)>()); });
    return v;
  }();
  return list;
}

Domain WorkloadInfo::domain_of(std::string_view tensor) const {
  for (const auto& [name, d] : domains)
    if (name == tensor) return d;
  return {};
}

const WorkloadInfo& find_workload(std::string_view name) {
  std::string known;
  for (const auto& w : all_workloads()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw std::invalid_argument("unknown workload '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace credit
