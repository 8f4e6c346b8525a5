#pragma once
// The one list of workloads. Adding a workload: write its declaration and add it here.
#include <tuple>

#include "core/workloads/add_rmsnorm.hpp"
#include "core/workloads/lars.hpp"
#include "core/workloads/layernorm.hpp"
#include "core/workloads/layernorm_bwd.hpp"
#include "core/workloads/pearson_bwd.hpp"
#include "core/workloads/quant_int8.hpp"
#include "core/workloads/rms_softmax.hpp"
#include "core/workloads/rmsnorm.hpp"
#include "core/workloads/softmax_bwd.hpp"
#include "core/workloads/softmax_dropout_bwd.hpp"
#include "core/workloads/wvar_bwd.hpp"

namespace credit {

using AllWorkloads = std::tuple<workloads::Layernorm, workloads::WvarBwd, workloads::PearsonBwd,
                                workloads::SoftmaxBwd, workloads::Lars, workloads::QuantInt8,
                                workloads::RmsSoftmax, workloads::Rmsnorm, workloads::AddRmsnorm,
                                workloads::SoftmaxDropoutBwd, workloads::LayernormBwd>;

// Calls f(W{}) for every declared workload, in declaration order.
template <class F>
constexpr void for_each_workload(F&& f) {
  std::apply([&](auto... w) { (f(w), ...); }, AllWorkloads{});
}

static_assert(std::apply([](auto... w) { return (declaration_is_valid<decltype(w)>() && ...); },
                         AllWorkloads{}),
              "a workload declaration breaks the rules in core/workload.hpp");

}  // namespace credit
