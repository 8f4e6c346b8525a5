// The negative controls: four operators with nothing for a cluster to reuse. Each
// declaration states its structure; its CPU execution matches an independent float64 formula
// (tests/reference) on random inputs and hand-computed rows; the structural rules reject each
// with its reason; and a declaration whose stated structure contradicts what it reads is invalid.
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/whole_row.hpp"
#include "core/workload.hpp"
#include "core/workload_registry.hpp"
#include "model/profitability.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

using namespace credit;

namespace {

struct Expected {
  const char* name;
  Structure structure;
  bool split_row;      // the staged, global-reread and clustered kernels run it
  const char* reason;  // what the structural rule must say
};

const Expected kControls[] = {
    {"scaled_bias_add", Structure::Elementwise, true, "no statistic is reused"},
    {"row_sum", Structure::OnePassReduction, true, "no statistic is reused"},
    {"row_cumsum", Structure::Scan, false, "the output depends on order"},
    {"row_argmax", Structure::Selection, false, "the output depends on order"},
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Runs the control's CPU execution: the split decomposition at p, or the whole-row execution.
void execute(const WorkloadInfo& w, HostProblem& pr, int p) {
  if (w.cpu_split) w.cpu_split(pr.operands(), p);
  else w.cpu_rows(pr.operands());
}

// Every output against the oracle: fp32 outputs and sums to 1e-5 relative L2, positions exactly.
void check_against_oracle(const HostProblem& pr) {
  const Reference64 ref = reference64(pr);
  for (size_t k = 0; k < pr.out.size(); ++k) {
    INFO("output " << pr.w->outputs[k].name);
    const double err = rel_l2(pr.out_f32(int(k)), ref.out[k]);
    CAPTURE(err);
    CHECK(err <= 1e-5);
  }
  for (size_t k = 0; k < pr.row_out.size(); ++k) {
    INFO("row output " << pr.w->row_outputs[k]);
    if (pr.w->name == "row_argmax") {
      for (long long r = 0; r < pr.m; ++r) CHECK(double(pr.row_out[k][r]) == ref.row_out[k][r]);
      continue;
    }
    const double err = rel_l2(pr.row_out[k].data(), ref.row_out[k]);
    CAPTURE(err);
    CHECK(err <= 1e-5);
  }
}

// One row of given values, every output poisoned, executed at P = 1.
HostProblem one_row(const char* name, const std::vector<float>& x) {
  const WorkloadInfo& w = find_workload(name);
  HostProblem pr = make_random_problem(w, 1, int(x.size()), 1);
  pr.in.at(0) = x;
  execute(w, pr, 1);
  return pr;
}

// Declarations that exist only here, each stating a structure its reads contradict.
struct ClaimsOnePassButRereads {
  static constexpr Structure structure = Structure::OnePassReduction;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 1> stages{{{1, 0b1}}};
  static constexpr std::array<Combine, 1> combine{Combine::Sum};
  static constexpr unsigned apply_reads = 0b1;  // x again after its sum: reduction-reuse
};
struct ClaimsElementwiseWithAStage : ClaimsOnePassButRereads {
  static constexpr Structure structure = Structure::Elementwise;
};
struct ClaimsScanInStages : ClaimsOnePassButRereads {
  static constexpr Structure structure = Structure::Scan;
};
struct ClaimsReuse : ClaimsOnePassButRereads {
  static constexpr Structure structure = Structure::ReductionReuse;
};
struct StagelessWithoutElementwise {  // no stage, and no structure stated: derived, not elementwise
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<StageDecl, 0> stages{};
  static constexpr std::array<Combine, 0> combine{};
  static constexpr unsigned apply_reads = 0b1;
};
struct ScanWithoutReason {
  static constexpr Structure structure = Structure::Scan;
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<OutputDecl, 1> outputs{{{"y", OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr const char* not_split_row = "";
};
struct WholeRowClaimsElementwise : ScanWithoutReason {
  static constexpr Structure structure = Structure::Elementwise;
  static constexpr const char* not_split_row = "because";
};
struct WholeRowScan : ScanWithoutReason {
  static constexpr const char* not_split_row = "because";
};

}  // namespace

TEST_CASE("negative controls: four declared, each stating its structure", "[controls]") {
  REQUIRE(negative_controls().size() == std::size(kControls));
  for (size_t i = 0; i < std::size(kControls); ++i) {
    const Expected& e = kControls[i];
    const WorkloadInfo& w = negative_controls()[i];
    INFO(e.name);
    CHECK(w.name == e.name);
    CHECK(&find_workload(e.name) == &w);
    CHECK(w.figures.structure == e.structure);
    CHECK(w.negative_control());
    CHECK_FALSE(w.math.empty());
    CHECK(w.default_rows == 4096);
    // The split-row ones have a split decomposition; the others say why the kernels cannot run them.
    CHECK((w.cpu_split != nullptr) == e.split_row);
    CHECK((w.cpu_rows != nullptr) == !e.split_row);
    CHECK(w.not_split_row.empty() == e.split_row);
    // Nothing is read again: the one-CTA kernel moves only the compulsory bytes.
    CHECK(w.figures.b_reread == 0);
    for (const auto& r : all_workloads()) CHECK(r.name != w.name);
  }
  const StaticFigures& add = find_workload("scaled_bias_add").figures;
  CHECK(add.L == 0);  // no statistic at all
  CHECK(add.Q == 0);
  CHECK(add.b_keep == 0);
  CHECK(add.compulsory == 8);
  const StaticFigures& sum = find_workload("row_sum").figures;
  CHECK(sum.L == 1);
  CHECK(sum.q == std::vector<int>{1});
  CHECK(sum.b_keep == 4);
  CHECK(sum.compulsory == 4);  // x in; the sums are row scalars
  CHECK(sum.row_scalar_bytes == 4);
  CHECK(find_workload("row_cumsum").figures.compulsory == 8);
  CHECK(find_workload("row_argmax").figures.row_scalar_bytes == 4);
  for (const auto& w : all_workloads()) {
    INFO(w.name);
    CHECK(w.figures.structure == Structure::ReductionReuse);
    CHECK_FALSE(w.negative_control());
  }
}

TEST_CASE("negative controls: a stated structure must agree with the declaration", "[controls]") {
  CHECK_FALSE(declaration_is_valid<ClaimsOnePassButRereads>());
  CHECK_FALSE(declaration_is_valid<ClaimsElementwiseWithAStage>());
  CHECK_FALSE(declaration_is_valid<ClaimsScanInStages>());
  CHECK(declaration_is_valid<ClaimsReuse>());  // the control case: the same reads, stated truthfully
  CHECK_FALSE(declaration_is_valid<StagelessWithoutElementwise>());
  CHECK_FALSE(whole_row_declaration_is_valid<ScanWithoutReason>());
  CHECK_FALSE(whole_row_declaration_is_valid<WholeRowClaimsElementwise>());
  CHECK(whole_row_declaration_is_valid<WholeRowScan>());
  CHECK(is_whole_row<WholeRowScan>());
  CHECK_FALSE(is_whole_row<ClaimsReuse>());
}

TEST_CASE("negative controls: CPU execution matches the float64 formula on random rows", "[controls]") {
  uint64_t seed = 1400;
  for (const Expected& e : kControls) {
    const WorkloadInfo& w = find_workload(e.name);
    for (int n : {1, 3, 17, 1000, 4096, 50257}) {
      for (int p : e.split_row ? std::vector<int>{1, 2, 16} : std::vector<int>{1}) {
        INFO(e.name << " N=" << n << " P=" << p);
        HostProblem pr = make_random_problem(w, n > 10000 ? 2 : 3, n, ++seed);
        execute(w, pr, p);
        check_against_oracle(pr);
      }
    }
  }
}

TEST_CASE("negative controls: hand-computed rows", "[controls]") {
  const HostProblem add = one_row("scaled_bias_add", {2.0f, -4.0f, 1.0f});
  const auto& b = add.col_param("b");
  for (int i = 0; i < 3; ++i) {
    const double want = 0.5 * add.in[0][i] + b[i];
    CHECK(std::fabs(add.out_f32(0)[i] - want) <= 1e-6 * (1 + std::fabs(want)));
  }
  CHECK(one_row("row_sum", {1.0f, 2.0f, 3.5f}).row_out[0][0] == 6.5f);
  const HostProblem cumsum = one_row("row_cumsum", {1.0f, 2.0f, 3.0f, -4.0f});
  const float want[] = {1.0f, 3.0f, 6.0f, 2.0f};
  for (int i = 0; i < 4; ++i) CHECK(cumsum.out_f32(0)[i] == want[i]);
  CHECK(one_row("row_argmax", {1.0f, 5.0f, 5.0f, 2.0f}).row_out[0][0] == 1.0f);  // the first of ties
  CHECK(one_row("row_argmax", {-3.0f, -1.0f, -2.0f}).row_out[0][0] == 1.0f);     // all negative
  CHECK(one_row("row_argmax", {7.0f}).row_out[0][0] == 0.0f);
  CHECK(one_row("row_argmax", {0.5f, 1.0f, 2.0f}).row_out[0][0] == 2.0f);  // the last element
}

TEST_CASE("negative controls: the structural rules reject each with its reason", "[controls]") {
  for (const Expected& e : kControls) {
    const WorkloadInfo& w = find_workload(e.name);
    INFO(e.name);
    const auto why = model::structural_rejection(w.figures);
    REQUIRE(why.has_value());
    CHECK(contains(*why, e.reason));
    CHECK(contains(*why, structure_name(e.structure)));
  }
  for (const auto& w : all_workloads()) CHECK_FALSE(model::structural_rejection(w.figures).has_value());
}
