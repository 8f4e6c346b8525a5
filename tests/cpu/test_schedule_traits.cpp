// The schedule traits table (include/credit/schedule.hpp): names round-trip, each schedule's P
// rule, the P a sweep times, and what the time model and the launcher read from it.
#include <string>

#include "catch.hpp"
#include "core/split.hpp"
#include "credit/schedule.hpp"
#include "model/time_model.hpp"
#include "sweep/selection.hpp"

using namespace credit;

TEST_CASE("every schedule has one row of traits, found by its name", "[schedule]") {
  int rows = 0;
  for (const ScheduleTraits& t : schedule_traits()) {
    INFO(t.name);
    CHECK(&traits_of(t.id) == &t);
    CHECK(parse_schedule(t.name) == t.id);
    CHECK(find_schedule(t.name) == &t);
    CHECK(std::string(schedule_name(t.id)) == t.name);
    CHECK((t.cluster_launch == (t.split == Split::Cluster || t.split == Split::LargestCluster)));
    ++rows;
  }
  CHECK(rows == 12);
  CHECK(find_schedule("copy") == nullptr);
  CHECK_THROWS_AS(parse_schedule("clusters"), std::invalid_argument);
}

TEST_CASE("each schedule takes the P its kind allows", "[schedule]") {
  CHECK(takes_p(Schedule::Staged, 1));
  CHECK_FALSE(takes_p(Schedule::Registers, 2));
  CHECK(takes_p(Schedule::RegistersDeep, 1));
  for (int p : {2, 4, 8, 16}) CHECK(takes_p(Schedule::Cluster, p));
  for (int p : {1, 3, 32}) CHECK_FALSE(takes_p(Schedule::Cluster, p));
  CHECK(takes_p(Schedule::Partial, kPartialClusterSize));
  CHECK_FALSE(takes_p(Schedule::Partial, 8));
  CHECK(takes_p(Schedule::Megakernel, 1));
  CHECK(takes_p(Schedule::LocalFusion, kMaxGlobalSplit));
  CHECK_FALSE(takes_p(Schedule::Unfused, kMaxGlobalSplit + 1));
  const std::vector<int> sizes{2, 4, 8, 16}, splits{1, 3, 64};
  CHECK(ps_to_time(Schedule::GlobalReread, sizes, splits) == std::vector<int>{1});
  CHECK(ps_to_time(Schedule::Cluster, sizes, splits) == sizes);
  CHECK(ps_to_time(Schedule::Partial, sizes, splits) == std::vector<int>{16});
  CHECK(ps_to_time(Schedule::Partial, {2, 4}, splits).empty());  // a sweep without clusters of 16
  CHECK(ps_to_time(Schedule::PartialOne, sizes, splits) == std::vector<int>{16});
  CHECK(ps_to_time(Schedule::Megakernel, sizes, splits) == splits);
  // split_global: powers of two from 2 to kMaxSpreadSplit, from the splits asked for.
  for (int p : {2, 8, 64, kMaxSpreadSplit}) CHECK(takes_p(Schedule::SplitGlobal, p));
  for (int p : {1, 3, 48, 2 * kMaxSpreadSplit}) CHECK_FALSE(takes_p(Schedule::SplitGlobal, p));
  CHECK(ps_to_time(Schedule::SplitGlobal, sizes, {1, 3, 16, 64, 128, 256}) == std::vector<int>{16, 64, 128});
  CHECK(spread_splits() == std::vector<int>{2, 4, 8, 16, 32, 64, 128});
  CHECK(ps_to_time(Schedule::SplitGlobal, sizes, spread_splits()) == spread_splits());
  CHECK(ps_to_time(Schedule::Megakernel, sizes, spread_splits()) == std::vector<int>{2, 4, 8, 16, 32, 64});  // not 128
}

TEST_CASE("the time model's candidates and labels come from the traits", "[schedule]") {
  for (const char* s :
       {"staged", "global_reread", "registers", "registers_deep", "cluster", "partial", "partial_one", "split_global"})
    CHECK(model::is_candidate_schedule(s));
  for (const char* s : {"megakernel", "local_fusion", "unfused", "split_pipelined", "split_partial", "copy", "triton"})
    CHECK_FALSE(model::is_candidate_schedule(s));
  CHECK(model::is_modelled_schedule("split_global"));
  CHECK_FALSE(model::is_modelled_schedule("megakernel"));
  // Schedules this build lacks, in points recorded by another one (docs/decisions/split-pipelined-rejected.md,
  // split-partial-rejected.md): unknown, no term, never a candidate.
  for (const char* s : {"split_pipelined", "split_partial"}) {
    INFO(s);
    CHECK(find_schedule(s) == nullptr);
    CHECK_THROWS_AS(parse_schedule(s), std::invalid_argument);
    CHECK_FALSE(model::is_modelled_schedule(s));
    CHECK_FALSE(model::is_candidate_point("layernorm", s, 16, 1 << 20));
    CHECK(model::partial_ctas_of(s) == 0);
  }
  CHECK(model::is_candidate("partial", 16));
  CHECK_FALSE(model::is_candidate("partial", 4));
  CHECK(model::is_candidate("registers_deep", 1, 8192));
  CHECK_FALSE(model::is_candidate("registers_deep", 1, 4096));  // recorded by an older table: not this build's
  CHECK_FALSE(model::is_candidate("registers", 1, 16385));
  CHECK(model::is_cluster_candidate("partial"));
  CHECK(model::is_cluster_candidate("partial_one"));
  CHECK(model::is_candidate("partial_one", 16));
  CHECK_FALSE(model::is_candidate("partial_one", 8));
  CHECK_FALSE(model::is_cluster_candidate("registers"));
  CHECK_FALSE(model::is_cluster_candidate("registers_deep"));
  CHECK(candidate_label("cluster", 8) == "cluster P=8");
  CHECK(candidate_label("partial", 16) == "partial P=16");
  CHECK(candidate_label("global_reread", 1) == "global_reread");
}

TEST_CASE("each register family holds rows up to its widest variant, in the narrowest variant that fits", "[schedule]") {
  CHECK(traits_of(Schedule::Registers).register_family == int(RegisterFamily::Wide));
  CHECK(traits_of(Schedule::RegistersDeep).register_family == int(RegisterFamily::Deep));
  CHECK(traits_of(Schedule::Staged).register_family == -1);
  CHECK(register_max_width(RegisterFamily::Wide) == 16384);
  CHECK(register_max_width(RegisterFamily::Deep) == 16384);
  for (RegisterFamily f : {RegisterFamily::Wide, RegisterFamily::Deep})
    for (long long n : {1LL, 1000LL, 1024LL, 1025LL, 4097LL, 8192LL, 8193LL, 16384LL}) {
      if (n < register_min_width(f)) {
        CHECK(register_variant_for(n, f) == -1);
        CHECK(register_width_refusal(n, f).find("4097 to 16384") != std::string::npos);
        continue;
      }
      CHECK(register_width_refusal(n, f).empty());
      const int v = register_variant_for(n, f);
      REQUIRE(v >= 0);
      const RegisterVariant& r = kRegisterVariants[v];
      CHECK(r.family == f);
      CHECK(n <= 4LL * r.threads * r.groups);
      for (int u = 0; u < kRegisterVariantCount; ++u)  // no narrower variant of the family holds it
        if (kRegisterVariants[u].family == f && kRegisterVariants[u].threads * kRegisterVariants[u].groups < r.threads * r.groups)
          CHECK(n > 4LL * kRegisterVariants[u].threads * kRegisterVariants[u].groups);
    }
  CHECK(register_variant_for(16385, RegisterFamily::Deep) == -1);
  CHECK(register_variant_for(4096, RegisterFamily::Deep) == -1);  // 4097 to 16384 only
  CHECK(kRegisterVariants[register_variant_for(8193, RegisterFamily::Deep)].threads == 512);
  CHECK(register_width_refusal(16385, RegisterFamily::Wide).find("at most 16384") != std::string::npos);
  CHECK(register_variant_for(16385, RegisterFamily::Wide) == -1);
  CHECK(kRegisterVariants[register_variant_for(8192, RegisterFamily::Deep)].threads == 256);
}

TEST_CASE("cluster_registers: a cluster schedule whose variant is chosen by the slice, up to 8192 elements", "[schedule]") {
  const ScheduleTraits& t = traits_of(Schedule::ClusterRegisters);
  CHECK(t.register_family == int(RegisterFamily::Cluster));
  CHECK(t.split == Split::Cluster);
  CHECK(t.cluster_launch);
  CHECK_FALSE(t.dynamic_smem);
  CHECK(model::is_cluster_candidate("cluster_registers"));
  for (int p : {2, 4, 8, 16}) CHECK(takes_p(Schedule::ClusterRegisters, p));
  CHECK_FALSE(takes_p(Schedule::ClusterRegisters, 1));
  CHECK(register_max_width(RegisterFamily::Cluster) == 8192);
  // The slice a CTA holds: ceil(n / p) rounded up to whole vectors; the row itself at P = 1.
  CHECK(register_width(1000, 1) == 1000);
  CHECK(register_width(131072, 16) == 8192);
  CHECK(register_width(131073, 16) == 8196);
  CHECK(register_width(10, 4) == 4);
  CHECK(model::is_candidate("cluster_registers", 16, 131072));
  CHECK_FALSE(model::is_candidate("cluster_registers", 16, 131073));  // a slice of 8196
  CHECK(model::is_candidate("cluster_registers", 2, 16384));
  CHECK_FALSE(model::is_candidate("cluster_registers", 2, 16385));
  // Kernel names are the family's and the variant's, distinct from the one-CTA families'.
  CHECK(model::kernel_of("cluster_registers", 131072, 16) == "cluster_registers/256x8");
  CHECK(model::kernel_of("cluster_registers", 8192, 4) == "cluster_registers/256x2");
  CHECK(model::kernel_of("cluster_registers", 16384, 4) == "cluster_registers/256x4");
  CHECK(model::kernel_of("registers", 4096) == "registers/256x4");
  CHECK(register_width_refusal(8196, RegisterFamily::Cluster).find("slices of at most 8192") != std::string::npos);
}

TEST_CASE("the partial schedules size their kept part for their CTAs per SM", "[schedule]") {
  CHECK(traits_of(Schedule::Partial).partial_ctas == kPartialCtasPerSm);
  CHECK(traits_of(Schedule::PartialOne).partial_ctas == 1);
  for (const auto& t : schedule_traits())
    if (t.id != Schedule::Partial && t.id != Schedule::PartialOne)
      CHECK(t.partial_ctas == 0);
  // 228 KB per SM, 1 KB reserved per CTA, 264 B of scratch, 8 B kept per element.
  const long long two = partial_keep_elems(8, 264, 233472, 2), one = partial_keep_elems(8, 264, 233472, 1);
  CHECK(two == (233472 / 2 - 1024 - 264) / 8 / 4 * 4);
  CHECK(one == (233472 - 1024 - 264) / 8 / 4 * 4);
  CHECK(partial_keep_elems(8, 264, 233472) == two);  // partial's default
  CHECK(partial_keep_elems(8, 264, 233472, 0) == 0);
  // What the launch asks for with that keep fits the share of the SM the keep was sized for, and one more
  // vector per plane would not.
  for (const int b : {4, 8, 12, 20})
    for (const int ctas : {1, 2, 4}) {
      INFO("b_keep " << b << ", " << ctas << " CTAs per SM");
      const long long keep = partial_keep_elems(b, 264, 233472, ctas);
      REQUIRE(keep > 0);
      CHECK(keep % 4 == 0);
      CHECK(partial_smem_bytes(keep, b, 264) <= 233472 / ctas - kReservedSmemPerCta);
      CHECK(partial_smem_bytes(keep + 4, b, 264) > 233472 / ctas - kReservedSmemPerCta);
    }
}
