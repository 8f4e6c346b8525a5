// The declarations' register path (contribute_kept, apply_kept: core/workload.hpp) against their plain
// path, element by element on random rows: the last stage's contributions and h must come out the same,
// so the register-resident kernels that keep the last stage's work compute what the others compute.
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "core/workloads/all.hpp"

namespace {

using namespace credit;

// Stage l of a row held as inputs[k][i]: every element's contribution folded, then finish.
template <class W, int l>
void run_stage(const std::vector<std::vector<float>>& in, int n, typename W::Ctx& ctx) {
  float acc[W::stages[l].q];
  for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_identity(op_of<W>(stat_offset<W>(l) + j));
  for (int i = 0; i < n; ++i) {
    float v[int(W::inputs.size())], g[W::stages[l].q];
    for (int k = 0; k < int(W::inputs.size()); ++k) v[k] = in[k][i];
    W::template contribute<l>(v, ctx, g);
    for (int j = 0; j < W::stages[l].q; ++j) acc[j] = combine_apply(op_of<W>(stat_offset<W>(l) + j), acc[j], g[j]);
  }
  const float rowp[kMaxRowParams] = {0.5f, -0.25f};
  W::template finish<l>(acc, n, rowp, ctx);
}

template <class W, int... l>
void run_stages_before_last(const std::vector<std::vector<float>>& in, int n, typename W::Ctx& ctx,
                            std::integer_sequence<int, l...>) {
  (run_stage<W, l>(in, n, ctx), ...);
}

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
    typename W::Ctx ctx{};
    run_stages_before_last<W>(in, n, ctx, std::make_integer_sequence<int, L - 1>{});
    // The last stage's contributions, both ways, then its finish; then h both ways.
    std::vector<std::vector<float>> kept(n, std::vector<float>(NI));
    for (int i = 0; i < n; ++i) {
      float v[NI], g[W::stages[L - 1].q], gk[W::stages[L - 1].q];
      for (int k = 0; k < NI; ++k) v[k] = kept[i][k] = in[k][i];
      W::template contribute<L - 1>(v, ctx, g);
      W::contribute_kept(kept[i].data(), ctx, gk);
      for (int j = 0; j < W::stages[L - 1].q; ++j) CHECK(gk[j] == g[j]);
    }
    run_stage<W, L - 1>(in, n, ctx);
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
