// The declarations' register path (contribute_kept, apply_kept: core/workload.hpp) against their plain
// path, element by element on random rows: the last stage's contributions and h must come out the same,
// so the register-resident kernels that keep the last stage's work compute what the others compute.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "core/cpu_split_execution.hpp"
#include "core/workloads/all.hpp"

namespace {

using namespace credit;

template <class W>
void check_kept(std::mt19937& rng) {
  constexpr int L = num_stages<W>(), NI = int(W::inputs.size()), NO = int(W::outputs.size());
  constexpr int NC = int(W::col_params.size());
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> mask(0.0f, 1.25f);
  for (int n : {1, 37, 1000}) {
    std::vector<std::vector<float>> in(NI, std::vector<float>(n));
    for (int k = 0; k < NI; ++k)
      for (auto& x : in[k]) x = k == 2 ? mask(rng) : normal(rng);
    // One row, one CTA: the CPU split execution's stages (core/cpu_split_execution.hpp) set the row state.
    RowOperands op;
    for (int k = 0; k < NI; ++k) op.in[k] = in[k].data();
    const std::vector<float> rowp(1, 0.5f);
    for (int k = 0; k < int(W::row_params.size()); ++k) op.row_in[k] = rowp.data();
    op.rows = 1;
    op.n = n;
    std::vector<typename W::Ctx> ctxs(1);
    detail::run_stages<W>(op, 0, 1, ctxs, std::make_integer_sequence<int, L - 1>{});
    typename W::Ctx& ctx = ctxs[0];
    // The last stage's contributions, both ways, then its finish; then h both ways.
    std::vector<std::vector<float>> kept(n, std::vector<float>(NI));
    for (int i = 0; i < n; ++i) {
      float v[NI], g[W::stages[L - 1].q], gk[W::stages[L - 1].q];
      for (int k = 0; k < NI; ++k) v[k] = kept[i][k] = in[k][i];
      W::template contribute<L - 1>(v, ctx, g);
      W::contribute_kept(kept[i].data(), ctx, gk);
      for (int j = 0; j < W::stages[L - 1].q; ++j) CHECK(gk[j] == g[j]);
    }
    detail::run_stage<W, L - 1>(op, 0, 1, ctxs);
    for (int i = 0; i < n; ++i) {
      float v[NI], cp[NC > 0 ? NC : 1] = {}, y[NO], yk[NO];
      for (int k = 0; k < NI; ++k) v[k] = in[k][i];
      W::apply(v, cp, ctx, y);
      W::apply_kept(kept[i].data(), cp, ctx, yk);
      for (int k = 0; k < NO; ++k) CHECK(yk[k] == y[k]);
    }
  }
}

}  // namespace

TEST_CASE("the register path of a declaration computes what its plain path computes", "[workloads]") {
  std::mt19937 rng(20261204);
  std::vector<std::string> with_kept;
  for_each_workload([&](auto w) {
    using W = decltype(w);
    if constexpr (keeps_in_registers<W>()) {
      INFO(W::name);
      with_kept.push_back(W::name);
      check_kept<W>(rng);
    }
  });
  // The two softmax backwards keep their exponentials (what the register kernels save there).
  CHECK(with_kept == std::vector<std::string>{"softmax_bwd", "softmax_dropout_bwd"});
}
