// The element type as a property of a run: its names, its rounding (the toolkit's conversions), the
// tolerance derived from it, and the static figures of every workload in each type, derived from the declarations.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "catch.hpp"
#include "core/element_type.hpp"
#include "core/row_span.hpp"
#include "core/workload_registry.hpp"
#include "model/profitability.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"
#include "support/time_model_fixture.hpp"
#include "core/workloads/all.hpp"
#include "model/time_model.hpp"

using namespace credit;
using model::cluster_smem_bytes;

TEST_CASE("element types: names, lists and a clear error", "[dtype]") {
  for (ElementType t : kElementTypes) CHECK(parse_element_type(element_type_name(t)) == t);
  const auto list = parse_element_types("bf16,f32,bf16,f16");
  REQUIRE(list.size() == 3);  // in its order, without repeats
  CHECK(list[0] == ElementType::BF16);
  CHECK(list[1] == ElementType::F32);
  CHECK(list[2] == ElementType::F16);
  try {
    parse_element_type("fp8");
    FAIL("fp8 was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("'fp8'") != std::string::npos);
    CHECK(std::string(e.what()).find("bf16") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_element_types(""), std::invalid_argument);
  CHECK_THROWS_AS(parse_element_types("f32,"), std::invalid_argument);
  CHECK(element_bytes(ElementType::F32) == 4);
  CHECK(element_bytes(ElementType::BF16) == 2);
  CHECK(element_bytes(ElementType::F16) == 2);
}

TEST_CASE("rounding to bf16 and fp16: to nearest even, within the unit roundoff", "[dtype]") {
  // bf16 keeps 8 bits of significand: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and goes to the even one, 1;
  // 1 + 3 x 2^-9 is nearer 1 + 2^-7.
  CHECK(round_to(ElementType::BF16, 1.0f + 0x1p-8f) == 1.0f);
  CHECK(round_to(ElementType::BF16, 1.0f + 3 * 0x1p-9f) == 1.0f + 0x1p-7f);
  CHECK(round_to(ElementType::BF16, 1.0f + 3 * 0x1p-8f) == 1.0f + 0x1p-6f);  // halfway, to the even neighbour
  // fp16: 11 bits, largest finite 65504; 65520 is halfway to 65536 and overflows.
  CHECK(round_to(ElementType::F16, 1.0f + 0x1p-11f) == 1.0f);
  CHECK(round_to(ElementType::F16, 65504.0f) == 65504.0f);
  CHECK(std::isinf(round_to(ElementType::F16, 65520.0f)));
  CHECK(std::isnan(round_to(ElementType::BF16, std::numeric_limits<float>::quiet_NaN())));
  CHECK(round_to(ElementType::F32, 1.0f + 0x1p-20f) == 1.0f + 0x1p-20f);
  // Over random normal inputs the largest relative error is at most, and near, the unit roundoff.
  std::mt19937 rng(20261206);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  for (ElementType t : {ElementType::BF16, ElementType::F16}) {
    double worst = 0;
    for (int i = 0; i < 100000; ++i) {
      const float x = normal(rng);
      if (std::fabs(x) < 1e-3f) continue;  // fp16's subnormals lose relative precision by design
      worst = std::max(worst, std::fabs(double(round_to(t, x)) - double(x)) / std::fabs(double(x)));
    }
    CHECK(worst <= unit_roundoff(t));
    CHECK(worst > 0.9 * unit_roundoff(t));
  }
}

TEST_CASE("the output tolerance: the fp32 allowance plus the output type's rounding", "[dtype]") {
  CHECK(output_tolerance(ElementType::F32) == kKernelRelL2);
  // Where outputs are subnormal in the type, its absolute rounding is added: fp16's only, in practice.
  CHECK(output_tolerance(ElementType::F16, 1.0, 1e6) == output_tolerance(ElementType::F16) + 0x1p-25 * 1e3);
  CHECK(output_tolerance(ElementType::BF16, 1e-3, 1e6) < output_tolerance(ElementType::BF16) * (1 + 1e-12));
  CHECK(output_tolerance(ElementType::F32, 1e-30, 1e6) == kKernelRelL2);
  // fp16 outputs near 1e-5 (a softmax over 10^5 elements) are subnormal: up to 2^-25 absolute error, 0.24% relative,
  // where fp16 normally rounds within 2^-11 = 0.05%.
  CHECK(std::fabs(round_to(ElementType::F16, 1.2345e-5f) - 1.2345e-5f) / 1.2345e-5f > unit_roundoff(ElementType::F16));
  CHECK(output_tolerance(ElementType::BF16) == kKernelRelL2 + 0x1p-8);
  CHECK(output_tolerance(ElementType::F16) == kKernelRelL2 + 0x1p-11);
  // A bf16 output rounded from the exact result passes; one off by a whole ulp of bf16 everywhere does not.
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  double err_round = 0, err_ulp = 0, norm = 0;
  for (int i = 0; i < 4096; ++i) {
    const double y = normal(rng);
    const double r = round_to(ElementType::BF16, float(y));
    const double off = r * (1 + 0x1p-7);
    err_round += (r - y) * (r - y);
    err_ulp += (off - y) * (off - y);
    norm += y * y;
  }
  CHECK(std::sqrt(err_round / norm) <= output_tolerance(ElementType::BF16));
  CHECK(std::sqrt(err_ulp / norm) > output_tolerance(ElementType::BF16));
}

TEST_CASE("static figures in each element type, from the declarations", "[dtype][figures]") {
  for (const WorkloadInfo& w : all_workloads()) {
    INFO(w.name);
    const StaticFigures& f32 = w.figures_in(ElementType::F32);
    CHECK(f32.compulsory == w.figures.compulsory);  // fp32 is what every kernel runs today
    CHECK(f32.b_keep == w.figures.b_keep);
    CHECK(f32.s_scratch == w.figures.s_scratch);
    CHECK(f32.b_reread == w.figures.b_reread);
    CHECK(f32.col_bytes == w.figures.col_bytes);
    for (ElementType t : {ElementType::BF16, ElementType::F16}) {
      const StaticFigures& f = w.figures_in(t);
      int fp32_out = 0, int8_out = 0;
      for (const OutputDecl& o : w.outputs) (o.type == OutType::F32 ? fp32_out : int8_out) += 1;
      // Inputs and fp32 outputs at 2 B, int8 outputs at 1 B.
      CHECK(f.compulsory == 2 * int(w.inputs.size()) + 2 * fp32_out + int8_out);
      CHECK(f.b_keep * 2 == f32.b_keep);  // kept in the input type
      CHECK(f.b_reread * 2 == f32.b_reread);
      CHECK(f.col_bytes * 2 == f32.col_bytes);
      CHECK(f.row_scalar_bytes == f32.row_scalar_bytes);  // per-row scalars stay fp32
      CHECK(f.L == f32.L);  // the statistics and stages do not change
      CHECK(f.Q == f32.Q);
      CHECK(f.s_scratch == f32.s_scratch);  // 32 B of slack per plane in any type; reduction floats, mbarriers
    }
  }
  // quant_int8: its fp32 input halves, its int8 output does not.
  const WorkloadInfo& q = find_workload("quant_int8");
  CHECK(q.figures_in(ElementType::F32).compulsory == 4 + 1);
  CHECK(q.figures_in(ElementType::BF16).compulsory == 2 + 1);
}

TEST_CASE("Eq. 3 in bf16: a row twice as wide fits the same shared memory", "[dtype][figures]") {
  const WorkloadInfo& w = find_workload("softmax_bwd");  // two kept planes
  const StaticFigures& f32 = w.figures_in(ElementType::F32);
  const StaticFigures& b16 = w.figures_in(ElementType::BF16);
  const long long n = 24576;
  CHECK(cluster_smem_bytes(b16, 2 * n, 1) < cluster_smem_bytes(f32, 2 * n, 1));
  CHECK(cluster_smem_bytes(b16, 2 * n, 1) - b16.s_scratch == cluster_smem_bytes(f32, n, 1) - f32.s_scratch);
  // At the H200's 232448 B per block, 2 x 24576 fp32 elements kept per element x 8 B do not fit one CTA; in bf16 they do.
  constexpr long long kSmemOptin = 232448;
  CHECK(cluster_smem_bytes(f32, 2 * n, 1) > kSmemOptin);
  CHECK(cluster_smem_bytes(b16, 2 * n, 1) <= kSmemOptin);
}

// The tolerance is reachable, and not loose: every workload's split execution (fp32 arithmetic, the decomposition
// the kernels run) on inputs rounded to the type, its outputs rounded to the type as a kernel storing them would,
// against the float64 oracle on the same rounded inputs: within output_tolerance for each per-element output, and
// above the fp32 tolerance (the rounding is really there); row scalars stay fp32 at kKernelRelL2; quant_int8's
// int8 output bit-exact against the float32 formula on the rounded inputs.
TEST_CASE("split execution on rounded inputs meets the derived tolerance in bf16 and f16", "[dtype]") {
  const auto& all = all_workloads();
  for (size_t wi = 0; wi < all.size(); ++wi)
    for (ElementType t : {ElementType::BF16, ElementType::F16})
      for (int p : {1, 16})
        for (int n : {1000, 50257}) {
          const WorkloadInfo& w = all[wi];
          INFO(w.name << " " << element_type_name(t) << " P=" << p << " N=" << n);
          HostProblem pr = make_random_problem(w, 2, n, 0x17B16ull * (wi + 1) + 97 * p + n);
          pr.round_inputs(t);
          for (const auto& x : pr.in[0]) REQUIRE(x == round_to(t, x));  // stored in the type
          w.cpu_split(pr.operands(), p);
          pr.round_outputs(t);
          const Reference64 ref = reference64(pr);
          for (size_t k = 0; k < pr.out.size(); ++k) {
            INFO("output " << w.outputs[k].name);
            if (w.outputs[k].type == OutType::F32) {
              const double err = rel_l2(pr.out_f32(int(k)), ref.out[k]);
              double norm2 = 0;
              for (double y : ref.out[k]) norm2 += y * y;
              const double tol = output_tolerance(t, std::sqrt(norm2), double(ref.out[k].size()));
              CAPTURE(err, tol);
              CHECK(err <= tol);
              CHECK(err > output_tolerance(ElementType::F32));
            } else {
              std::vector<float> scale;
              const std::vector<int8_t> want = quant_int8_float32(pr, &scale);
              long long mismatches = 0;
              for (size_t i = 0; i < want.size(); ++i) mismatches += pr.out_i8(int(k))[i] != want[i];
              CHECK(mismatches == 0);
            }
          }
          for (size_t k = 0; k < pr.row_out.size(); ++k)
            CHECK(rel_l2(pr.row_out[k].data(), ref.row_out[k]) <= output_tolerance(ElementType::F32));
        }
}

TEST_CASE("the declared workloads in bf16 and f16: named, typed and found", "[dtype][figures]") {
  for (ElementType t : {ElementType::BF16, ElementType::F16}) {
    REQUIRE(narrow_workloads(t).size() == all_workloads().size());
    for (const WorkloadInfo& w : all_workloads()) {
      const WorkloadInfo& typed = in_type(w, t);
      INFO(typed.name);
      CHECK(typed.name == w.name + "@" + element_type_name(t));
      CHECK(typed.declared == w.name);
      CHECK(typed.element() == t);
      CHECK(typed.figures.element == t);
      CHECK(typed.figures.compulsory == w.figures_in(t).compulsory);  // every byte count in the type
      CHECK(&find_workload(typed.name) == &typed);
      CHECK(declared_workload(typed.name) == &typed);
      CHECK(&in_type(typed, ElementType::F32) == &w);
      CHECK(&in_type(w, ElementType::F32) == &w);
    }
  }
  CHECK(narrow_workloads(ElementType::F32).empty());
  // A negative control is built in f32 only, and a typed workload is not retyped.
  CHECK_THROWS_AS(in_type(negative_controls().front(), ElementType::BF16), std::invalid_argument);
  CHECK_THROWS_AS(in_type(find_workload("layernorm@bf16"), ElementType::F16), std::invalid_argument);
  try {
    find_workload("layernorm@bf8");
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("@bf16") != std::string::npos);  // the error says how types are named
  }
}

namespace {
// A declaration stored in a 2-byte type, as the kernels' Stored<W, __nv_bfloat16> is (only its size matters here).
template <class W>
struct TwoByte : W {
  using element = std::uint16_t;
};
}  // namespace

// The bf16 / fp16 kernels (kernels/split_row_kernel.cuh) lay out R planes of plane_elems(n, p, 8) 2-byte elements,
// then the reduction floats and the mbarriers; slices of whole 8-element groups walked as BasicRowSpan<8>. What a CTA
// requests (split_smem_bytes) must hold that layout at every slice and row alignment, and equal the time model's Eq. 3
// from the bf16 figures, so that the launcher and the model agree on legality.
TEST_CASE("16-bit slices, spans and planes fit the shared memory Eq. 3 requests", "[dtype][figures]") {
  int checked = 0;
  for_each_workload([&](auto decl) {
    using W = decltype(decl);
    using N = TwoByte<W>;
    static_assert(sizeof(element_t<N>) == 2 && sizeof(element_t<W>) == 4);
    static_assert(!retains_contribution<N>(), "a 16-bit plane keeps inputs, never fp32 contributions");
    const WorkloadInfo& w = find_workload(W::name);
    const long planes = popcount(retained_mask<W>());
    for (int n : {1, 7, 1000, 4099, 50257, 65536, 131072, 262147})
      for (int p : {1, 2, 4, 8, 16}) {
        INFO(W::name << " N=" << n << " P=" << p);
        const long layout = 2L * planes * plane_elems(n, p, 8) + 4L * reduction_floats<N>() +
                            8L * (SplitPolicy::max_chunks + num_stages<N>());
        CHECK(layout <= split_smem_bytes<N>(n, p));
        CHECK(split_smem_bytes<N>(n, p) == cluster_smem_bytes(w.figures_in(ElementType::BF16), n, p));
        int next = 0;
        for (int c = 0; c < p; ++c) {
          const Slice s = slice_of(n, p, c, 8);
          REQUIRE(s.lo == next);
          if (s.hi > s.lo) REQUIRE(s.lo % 8 == 0);
          for (long long row : {0LL, 1LL, 3LL, 5LL}) {  // rows start at every alignment of a ragged N
            const BasicRowSpan<8> span(row * n, s.lo, s.hi);
            CHECK(span.groups() * 8 + span.edge_count() == s.hi - s.lo);  // every element once
            CHECK(span.edge_count() <= 14);
            if (span.groups() > 0) CHECK((span.base + span.ia) % 8 == 0);  // 16-byte groups in global memory
            if (s.hi > s.lo) CHECK(span.smem_index(s.hi - 1) < plane_elems(n, p, 8));
            if (span.groups() > 0) CHECK(span.smem_index(span.ia) % 8 == 0);  // and in the plane
          }
          next = s.hi;
        }
        CHECK(next == n);
        ++checked;
      }
  });
  CHECK(checked == 8 * 5 * int(all_workloads().size()));
}

TEST_CASE("the time model predicts every candidate in bf16", "[dtype][model]") {
  Calibration c = test::h200_like();
  for (const auto& w : narrow_workloads(ElementType::BF16)) {  // the typed kernels' resources, as calibrate records
    for (const char* s : {"staged", "cluster", "split_global"}) c.kernels.push_back({w.name, s, 256, 64, 0});
    c.kernels.push_back({w.name, "global_reread", 512, 54, 128});
  }
  const WorkloadInfo& b = find_workload("rmsnorm@bf16");
  const Prediction pr = model::predict_times(b.figures, b.name, c, TimeModelParams{}, 4096, 8192);
  int legal = 0;
  for (const CandidateTime& ct : pr.candidates) {
    INFO(ct.schedule << " P=" << ct.p);
    const ScheduleTraits* t = find_schedule(ct.schedule);
    REQUIRE(t != nullptr);
    CHECK(t->candidate);
    legal += ct.legal;
  }
  CHECK(legal >= 3);  // staged, global_reread and clusters
  // Eq. 3 in the type: a bf16 row of 98304 elements fits one CTA (192 KB), in f32 it does not.
  const auto staged = [&](const WorkloadInfo& w) {
    return model::candidate_time(w.figures, w.name, c, TimeModelParams{}, model::copy_line(c.copies), "staged", 1, 1024,
                                 98304);
  };
  CHECK(staged(b).legal);
  CHECK_FALSE(staged(find_workload("rmsnorm")).legal);
}

// Partial retention in bf16 keeps its slice in the stored type: twice fp32's elements in the same bytes, in whole
// groups of 8, so a row whose slice streams in fp32 may fit whole in bf16.
TEST_CASE("the time model sizes partial retention in the stored type", "[dtype][model]") {
  Calibration c = test::h200_like();
  for (const auto& w : narrow_workloads(ElementType::BF16)) c.kernels.push_back({w.name, "cluster", 256, 64, 0});
  const WorkloadInfo& f = find_workload("rmsnorm");
  const WorkloadInfo& b = find_workload("rmsnorm@bf16");
  const long long keep_f = partial_keep_elems(f.figures.b_keep, f.figures.s_scratch, c.device.smem_per_sm);
  const long long keep_b = partial_keep_elems(b.figures.b_keep, b.figures.s_scratch, c.device.smem_per_sm,
                                              kPartialCtasPerSm, group_elems_of(ElementType::BF16));
  CHECK(keep_b % 8 == 0);
  CHECK(keep_b >= 2 * keep_f - 8);
  CHECK(keep_b <= 2 * keep_f + 8);
  auto partial = [&](const WorkloadInfo& w, long long n) {
    return model::candidate_time(w.figures, w.name, c, model::h200_params(), model::copy_line(c.copies), "partial", 16,
                                 1024, n);
  };
  // A slice of 3 x 2^14 elements: more than fp32 keeps, less than bf16 keeps.
  REQUIRE(16 * keep_f < 786432);
  REQUIRE(16 * keep_b > 786432);
  CHECK(partial(f, 786432).legal);
  const CandidateTime whole = partial(b, 786432);
  CHECK_FALSE(whole.legal);
  CHECK(whole.reason.find("fits whole") != std::string::npos);
  // Where both stream, bf16 streams a smaller share of a row of half the bytes: the shorter time.
  const CandidateTime tb = partial(b, 1 << 21), tf = partial(f, 1 << 21);
  REQUIRE(tb.legal);
  REQUIRE(tf.legal);
  CAPTURE(tb.t_ms, tf.t_ms);
  CHECK(tb.t_ms > 0);
  CHECK(tb.t_ms < tf.t_ms);
}

TEST_CASE("a register variant holds twice the row in a 16-bit type (groups of 8 elements)", "[dtype][model]") {
  CHECK(element_of_name("layernorm") == ElementType::F32);
  CHECK(element_of_name("layernorm@bf16") == ElementType::BF16);
  CHECK(element_of_name("quant_int8@f16") == ElementType::F16);
  CHECK_THROWS_AS(element_of_name("layernorm@f64"), std::invalid_argument);
  const int v8 = group_elems_of(ElementType::BF16), v4 = group_elems_of(ElementType::F32);
  REQUIRE(v8 == 8);
  REQUIRE(group_elems_of(ElementType::F16) == 8);
  for (RegisterFamily f : {RegisterFamily::Wide, RegisterFamily::Deep, RegisterFamily::Cluster}) {
    INFO("family " << int(f));
    CHECK(register_max_width(f, v8) == 2 * register_max_width(f, v4));
    // The same variant at twice the width: the same 16-byte groups per thread.
    for (long long n : {1LL, 1000LL, 4096LL, 5000LL, 8192LL, 12000LL, 16384LL})
      if (register_variant_for(n, f, v4) >= 0) CHECK(register_variant_for(2 * n, f, v8) == register_variant_for(n, f, v4));
  }
  CHECK(register_variant_for(32768, RegisterFamily::Wide, v4) == -1);
  CHECK(kRegisterVariants[register_variant_for(32768, RegisterFamily::Wide, v8)].threads == 1024);
  CHECK(register_min_width(RegisterFamily::Deep, v8) == 8193);  // where the wide 256 x 4 ends, as in f32
  CHECK(register_width_refusal(8192, RegisterFamily::Deep, v8).find("8193 to 32768") != std::string::npos);
  CHECK(register_width_refusal(32769, RegisterFamily::Wide, v8).find("at most 32768") != std::string::npos);
  // A cluster's slices are whole 8-element groups in bf16: 262144 over 16 CTAs is 16384 a CTA, 256 x 8 groups.
  CHECK(register_width(262144, 16, v8) == 16384);
  CHECK(register_width(262145, 16, v8) == 16392);
  CHECK(register_width(262145, 16, v4) == 16388);
  CHECK(model::kernel_of("cluster_registers", 262144, 16, v8) == "cluster_registers/256x8");
  CHECK(model::kernel_of("registers", 32768, 1, v8) == "registers/1024x4");
  CHECK(model::kernel_of("registers", 16384, 1, v8) == "registers/512x4");
  // A sweep's points: the type comes from the workload's name.
  CHECK(model::is_candidate_point("rmsnorm@bf16", "registers", 1, 32768));
  CHECK_FALSE(model::is_candidate_point("rmsnorm", "registers", 1, 32768));
  CHECK(model::is_candidate_point("rmsnorm@f16", "cluster_registers", 16, 262144));
  CHECK_FALSE(model::is_candidate_point("rmsnorm", "cluster_registers", 16, 262144));
}

TEST_CASE("the time model predicts the register kernels in bf16 from their own resources", "[dtype][model]") {
  Calibration c = test::h200_like();
  for (const auto& w : narrow_workloads(ElementType::BF16)) {
    for (const char* s : {"staged", "cluster"}) c.kernels.push_back({w.name, s, 256, 64, 0});
    c.kernels.push_back({w.name, "global_reread", 512, 54, 128});
  }
  const WorkloadInfo& b = find_workload("rmsnorm@bf16");
  auto registers = [&] {
    return model::candidate_time(b.figures, b.name, c, model::h200_params(), model::copy_line(c.copies), "registers", 1,
                                 4096, 32768);
  };
  // Without the bf16 kernel's resources the candidate is refused, naming the kernel; with them it is legal at a width
  // no f32 register kernel holds.
  const CandidateTime missing = registers();
  CHECK_FALSE(missing.legal);
  CHECK(missing.reason.find("registers/1024x4") != std::string::npos);
  for (int v = 0; v < kRegisterVariantCount; ++v)
    c.kernels.push_back({b.name, register_kernel_name(v), kRegisterVariants[v].threads, 48, 0});
  const CandidateTime held = registers();
  CHECK(held.legal);
  CHECK(held.t_ms > 0);
  // 1024 threads x 4 groups at 48 registers: one CTA per SM, as the f32 kernel that holds 16384.
  CHECK(held.ctas_per_sm == 1);
  CHECK_FALSE(model::candidate_time(find_workload("rmsnorm").figures, "rmsnorm", c, model::h200_params(),
                                    model::copy_line(c.copies), "registers", 1, 4096, 32768)
                  .legal);
}
