#pragma once
// Run-time view of the declared workloads for the CLI, the model and the tests.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/operands.hpp"
#include "core/static_figures.hpp"

namespace credit {

struct WorkloadInfo {
  std::string name;  // the declaration's, with "@bf16" or "@f16" for a workload stored in a narrower type
  std::string declared;  // the declaration's name (the kernels', the CPU execution's, the peers')
  long default_rows = 0;
  std::vector<std::string> inputs, col_params, row_params, row_outputs;
  std::vector<OutputDecl> outputs;
  std::vector<Combine> combine;
  std::vector<std::pair<std::string, Domain>> domains;  // from the declaration; others standard normal
  // The distribution of a tensor's test and benchmark data (standard normal unless declared).
  Domain domain_of(std::string_view tensor) const;
  StaticFigures figures;  // in the workload's element type
  ElementType element() const { return figures.element; }  // the stored type of its row tensors
  // The figures in an element type, derived from the declaration when asked: figures_in(F32) == figures.
  StaticFigures (*figures_of_type)(ElementType) = nullptr;
  StaticFigures figures_in(ElementType t) const { return figures_of_type(t); }
  void (*cpu_split)(const RowOperands&, int p) = nullptr;  // CPU clustered decomposition
  // Negative controls only (core/workloads/controls/): a line for credit list; for those declared
  // whole-row, why the split-row kernels cannot run them and their CPU execution (cpu_split is null).
  std::string math;
  std::string not_split_row;
  void (*cpu_rows)(const RowOperands&) = nullptr;
  bool negative_control() const { return figures.structure != Structure::ReductionReuse; }
};

// The reduction-reuse workloads, every one declared in core/workloads/all.hpp: what calibration, the models
// and the default sweeps cover (`credit list` prints how many).
const std::vector<WorkloadInfo>& all_workloads();
// The negative controls: nothing to reuse; credit list shows them, predict and run-sweep reject them.
const std::vector<WorkloadInfo>& negative_controls();

// The same workloads in bf16 or fp16: each declared workload named "<name>@bf16" / "<name>@f16", its figures in that
// type; every schedule runs them. Empty for f32.
const std::vector<WorkloadInfo>& narrow_workloads(ElementType t);
// "layernorm" in t: "layernorm" for f32, "layernorm@bf16" otherwise.
std::string typed_name(std::string_view declared, ElementType t);
// Workload w in element type t: w itself when it is in t already, its declaration's f32 workload for f32, its
// "@bf16" / "@f16" variant otherwise; throws std::invalid_argument for a negative control in bf16 or f16, or a typed
// workload asked for the other narrow type.
const WorkloadInfo& in_type(const WorkloadInfo& w, ElementType t);

// Any kind by name (typed ones too). Throws std::invalid_argument naming the known workloads when `name` is none.
const WorkloadInfo& find_workload(std::string_view name);
// One of all_workloads() or narrow_workloads() by name; nullptr for any other name (a negative control, a workload this
// build lacks).
const WorkloadInfo* declared_workload(std::string_view name);

}  // namespace credit
