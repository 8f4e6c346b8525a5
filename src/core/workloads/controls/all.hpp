#pragma once
// The negative controls: operators whose structure leaves nothing for a cluster to
// reuse, declared so that the structural rules reject them by name and `credit bench` can
// measure the ones the split-row kernels run. They are not in AllWorkloads: the calibration,
// the time model and the default sweeps are about reduction-reuse only.
#include <tuple>

#include "core/whole_row.hpp"
#include "core/workloads/controls/row_argmax.hpp"
#include "core/workloads/controls/row_cumsum.hpp"
#include "core/workloads/controls/row_sum.hpp"
#include "core/workloads/controls/scaled_bias_add.hpp"

namespace credit {

// Written in stages of statistics (core/workload.hpp): the staged, global-reread and clustered
// kernels run them (and only those are instantiated for them, in gpu/kernel_sets/negative_control_kernels.cu).
using SplitRowControls = std::tuple<workloads::ScaledBiasAdd, workloads::RowSum>;
// Declared whole-row (core/whole_row.hpp): no kernel can run them; bench says why.
using WholeRowControls = std::tuple<workloads::RowCumsum, workloads::RowArgmax>;

// Calls f(W{}) for every negative control, the split-row ones first.
template <class F>
constexpr void for_each_negative_control(F&& f) {
  std::apply([&](auto... w) { (f(w), ...); }, SplitRowControls{});
  std::apply([&](auto... w) { (f(w), ...); }, WholeRowControls{});
}

static_assert(std::apply([](auto... w) { return (declaration_is_valid<decltype(w)>() && ...); },
                         SplitRowControls{}),
              "a negative control breaks the rules in core/workload.hpp");
static_assert(std::apply([](auto... w) { return (whole_row_declaration_is_valid<decltype(w)>() && ...); },
                         WholeRowControls{}),
              "a negative control breaks the rules in core/whole_row.hpp");
template <class W>
constexpr bool states_no_reuse() {
  if constexpr (requires { W::structure; }) return W::structure != Structure::ReductionReuse;
  return false;
}
static_assert(std::apply([](auto... w) { return (states_no_reuse<decltype(w)>() && ...); },
                         std::tuple_cat(SplitRowControls{}, WholeRowControls{})),
              "every negative control states its structure, and it is not reduction-reuse");

}  // namespace credit
