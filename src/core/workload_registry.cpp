#include "core/workload_registry.hpp"

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
  w.positive_inputs = positive_inputs_mask<W>();
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

const WorkloadInfo& find_workload(std::string_view name) {
  std::string known;
  for (const auto& w : all_workloads()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw std::invalid_argument("unknown workload '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace credit
