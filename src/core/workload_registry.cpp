#include "core/workload_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cpu_split_execution.hpp"
#include "core/workloads/all.hpp"
#include "core/workloads/controls/all.hpp"

namespace credit {

namespace {

// The parts both vocabularies share (core/workload.hpp, core/whole_row.hpp).
template <class W>
WorkloadInfo common_info_of() {
  WorkloadInfo w;
  w.name = W::name;
  w.declared = W::name;
  w.default_rows = W::default_rows;
  if constexpr (requires { W::math; }) w.math = W::math;
  for (auto s : W::inputs) w.inputs.emplace_back(s);
  for (auto s : W::row_outputs) w.row_outputs.emplace_back(s);
  w.outputs.assign(W::outputs.begin(), W::outputs.end());
  w.figures = static_figures_of<W>();
  w.figures_of_type = &static_figures_of<W>;
  return w;
}

template <class W>
WorkloadInfo info_of() {
  WorkloadInfo w = common_info_of<W>();
  if constexpr (is_whole_row<W>()) {
    w.not_split_row = W::not_split_row;
    w.cpu_rows = &cpu_whole_row_execute<W>;
  } else {
    for (auto s : W::col_params) w.col_params.emplace_back(s);
    for (auto s : W::row_params) w.row_params.emplace_back(s);
    w.combine.assign(W::combine.begin(), W::combine.end());
    if constexpr (requires { W::domains; })
      for (const TensorDomain& d : W::domains) {
        const auto named = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), d.tensor) != v.end(); };
        if (!named(w.inputs) && !named(w.col_params) && !named(w.row_params))
          throw std::logic_error(w.name + " declares a domain for '" + d.tensor + "', which is none of its tensors");
        w.domains.emplace_back(d.tensor, d.domain);
      }
    w.cpu_split = &cpu_split_execute<W>;
  }
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

const std::vector<WorkloadInfo>& negative_controls() {
  static const std::vector<WorkloadInfo> list = [] {
    std::vector<WorkloadInfo> v;
    for_each_negative_control([&](auto w) { v.push_back(info_of<decltype(w)>()); });
    return v;
  }();
  return list;
}

const std::vector<WorkloadInfo>& narrow_workloads(ElementType t) {
  auto typed = [](ElementType e) {
    std::vector<WorkloadInfo> v;
    for (const WorkloadInfo& w : all_workloads()) {
      WorkloadInfo c = w;
      c.name = typed_name(w.declared, e);
      c.figures = w.figures_in(e);
      v.push_back(std::move(c));
    }
    return v;
  };
  static const std::vector<WorkloadInfo> none, bf16 = typed(ElementType::BF16), f16 = typed(ElementType::F16);
  return t == ElementType::BF16 ? bf16 : t == ElementType::F16 ? f16 : none;
}

std::string typed_name(std::string_view declared, ElementType t) {
  return t == ElementType::F32 ? std::string(declared) : std::string(declared) + "@" + element_type_name(t);
}

const WorkloadInfo& in_type(const WorkloadInfo& w, ElementType t) {
  if (w.element() == t) return w;
  if (t == ElementType::F32 && !w.negative_control()) return find_workload(w.declared);
  if (w.negative_control() || w.element() != ElementType::F32)
    throw std::invalid_argument(w.name + " is not built in " + element_type_name(t) +
                                " (the declared workloads are, in f32, bf16 and f16)");
  for (const WorkloadInfo& c : narrow_workloads(t))
    if (c.declared == w.name) return c;
  throw std::invalid_argument(w.name + " has no " + element_type_name(t) + " variant");
}

Domain WorkloadInfo::domain_of(std::string_view tensor) const {
  for (const auto& [name, d] : domains)
    if (name == tensor) return d;
  return {};
}

const WorkloadInfo* declared_workload(std::string_view name) {
  for (const auto& w : all_workloads())
    if (w.name == name) return &w;
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const auto& w : narrow_workloads(t))
      if (w.name == name) return &w;
  return nullptr;
}

const WorkloadInfo& find_workload(std::string_view name) {
  std::string known, controls;
  for (const auto& w : all_workloads()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  for (const auto& w : negative_controls()) {
    if (w.name == name) return w;
    controls += (controls.empty() ? "" : ", ") + w.name;
  }
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const auto& w : narrow_workloads(t))
      if (w.name == name) return w;
  throw std::invalid_argument("unknown workload '" + std::string(name) + "' (known: " + known +
                              ", each also as <name>@bf16 and <name>@f16; negative controls: " + controls + ")");
}

}  // namespace credit
