// The static figures derived from the declarations, checked two ways: against docs/design.md's
// table, written out here as literals, and against figures this test reads off each
// declaration's source text with its own parser (src/core/workloads/<name>.hpp), so that a
// figure the traits derive wrongly, or a declaration change that moves one, is caught. Also the
// structural class, the registry's error path and the slice arithmetic every schedule shares.
#include <algorithm>
#include <array>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "core/row_span.hpp"
#include "core/split.hpp"
#include "core/static_figures.hpp"
#include "core/workload_registry.hpp"
#include "core/workloads/all.hpp"

namespace {

struct Expected {
  const char* name;
  std::vector<int> q;  // statistics per stage
  int b_keep, compulsory, b_reread, row_scalar_bytes;
};

// docs/design.md section 1 (retained, compulsory bytes/elem; stages) and section 3 (b_reread: the
// bytes each stage and apply read, minus every input read once). Row scalars: gv, gr, scale.
const std::vector<Expected> kTable = {
    {"layernorm", {1, 1}, 4, 8, 8, 0},
    {"wvar_bwd", {2, 1}, 8, 16, 16, 4},
    {"pearson_bwd", {2, 3}, 8, 16, 16, 4},
    {"softmax_bwd", {1, 2}, 8, 12, 12, 0},
    {"lars", {2}, 8, 20, 8, 0},
    {"quant_int8", {1}, 4, 5, 4, 4},
    {"rms_softmax", {2, 1}, 4, 8, 8, 0},
    {"rmsnorm", {1}, 4, 8, 4, 0},
    {"add_rmsnorm", {1}, 8, 16, 8, 0},
    {"softmax_dropout_bwd", {1, 2}, 12, 16, 16, 0},
    {"layernorm_bwd", {1, 3}, 8, 12, 12, 0},
};

// What a declaration's text says, read with regular expressions (no code shared with the traits).
struct Declared {
  std::vector<int> q;               // "stages{{{2, 0b11}, {3, 0b11}}}": q of each stage
  std::vector<unsigned> reads;      // and its input mask
  unsigned apply_reads = 0;         // "apply_reads = 0b11"
  int inputs = 0, row_params = 0, row_outputs = 0;  // "std::array<const char*, 2> inputs"
  int out_bytes = 0;                // 4 per OutType::F32 output, 1 per OutType::I8
  int combines = 0;                 // entries of "combine{...}"
  int stat_bytes = 0;               // sizeof the type contribute writes ("float* g")
};

int array_size(const std::string& text, const std::string& name) {
  std::smatch m;
  const std::regex re("std::array<[^,>]+, *([0-9]+)> +" + name + "\\b");
  REQUIRE(std::regex_search(text, m, re));
  return std::stoi(m[1]);
}

std::string between(const std::string& text, const std::string& start, char end) {
  const auto at = text.find(start);
  REQUIRE(at != std::string::npos);
  return text.substr(at, text.find(end, at) - at);
}

Declared read_declaration(const std::string& workload) {
  const std::string path = std::string(CREDIT_SOURCE_DIR) + "/src/core/workloads/" + workload + ".hpp";
  std::ifstream in(path);
  INFO("declaration " << path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  Declared d;
  d.inputs = array_size(text, "inputs");
  d.row_params = array_size(text, "row_params");
  d.row_outputs = array_size(text, "row_outputs");
  const std::string stages = between(text, "> stages{", ';');
  const std::regex stage_re("\\{ *([0-9]+) *, *0b([01]+) *\\}");
  for (std::sregex_iterator it(stages.begin(), stages.end(), stage_re), end; it != end; ++it) {
    d.q.push_back(std::stoi((*it)[1]));
    d.reads.push_back(unsigned(std::stoul((*it)[2], nullptr, 2)));
  }
  REQUIRE(int(d.q.size()) == array_size(text, "stages"));
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex("apply_reads = 0b([01]+)")));
  d.apply_reads = unsigned(std::stoul(m[1], nullptr, 2));
  const std::string outputs = between(text, "> outputs{", ';');
  for (std::size_t at = 0; (at = outputs.find("OutType::", at)) != std::string::npos; at += 9)
    d.out_bytes += outputs.compare(at + 9, 3, "F32") == 0 ? 4 : outputs.compare(at + 9, 2, "I8") == 0 ? 1 : 1000;
  const std::string combine = between(text, "> combine{", ';');
  for (std::size_t at = 0; (at = combine.find("Combine::", at)) != std::string::npos; at += 9) ++d.combines;
  REQUIRE(std::regex_search(text, m, std::regex("contribute\\(const (\\w+)\\* v, [^,]*, (\\w+)\\* g\\)")));
  const std::string stat = m[2];
  d.stat_bytes = stat == "float" ? 4 : stat == "double" ? 8 : stat == "half" ? 2 : 0;
  return d;
}

int bits(unsigned m) {
  int n = 0;
  for (; m; m &= m - 1) ++n;
  return n;
}

}  // namespace

TEST_CASE("static figures match docs/design.md's table", "[figures]") {
  const auto& all = credit::all_workloads();
  REQUIRE(all.size() == kTable.size());
  for (const Expected& e : kTable) {
    INFO("workload " << e.name);
    const credit::StaticFigures& f = credit::find_workload(e.name).figures;
    CHECK(f.L == int(e.q.size()));
    CHECK(f.q == e.q);
    int Q = 0;
    for (int q : e.q) Q += q;
    CHECK(f.Q == Q);
    CHECK(f.K() == 2 * int(e.q.size()));  // the paper's protocol: 2 cluster barriers per stage
    CHECK(f.b_keep == e.b_keep);
    CHECK(f.compulsory == e.compulsory);
    CHECK(f.b_reread == e.b_reread);
    CHECK(f.row_scalar_bytes == e.row_scalar_bytes);
    CHECK(f.s_scratch > 0);
    // S_scratch = 4 (L warps q_max + 16 Q, rounded up to even) + 8 B x (16 + L) mbarriers + 8 b_keep,
    // warps = threads / 32 (a build option): layernorm at 256 threads 4 (2*8*1 + 16*2) + 144 + 32.
    const long w8 = credit::SplitPolicy::warps;
    if (e.name == std::string("layernorm")) CHECK(f.s_scratch == 4 * (2 * w8 + 32) + 144 + 32);
    if (e.name == std::string("pearson_bwd")) CHECK(f.s_scratch == 4 * (2 * w8 * 3 + 80) + 144 + 64);
    for (double n : {1.0, 4096.0, 50257.0})
      CHECK(f.d_fixed(n) == n * e.compulsory + e.row_scalar_bytes);
  }
}

TEST_CASE("static figures match each declaration's source text", "[figures]") {
  for (const auto& w : credit::all_workloads()) {
    INFO("workload " << w.name);
    const Declared d = read_declaration(w.name);
    const credit::StaticFigures& f = w.figures;
    CHECK(f.L == int(d.q.size()));
    CHECK(f.q == d.q);
    int Q = 0;
    for (int q : d.q) Q += q;
    CHECK(f.Q == Q);
    CHECK(d.combines == Q);  // one combine operator per statistic
    CHECK(f.K() == 2 * int(d.q.size()));
    CHECK(f.s == d.stat_bytes);  // what a pushed partial occupies (Eq. 6)
    unsigned retained = 0;
    int passes = bits(d.apply_reads);
    for (unsigned r : d.reads) {
      retained |= r;
      passes += bits(r);
    }
    CHECK(f.b_keep == 4 * bits(retained));
    CHECK(f.b_reread == 4 * (passes - d.inputs));
    CHECK(f.compulsory == 4 * d.inputs + d.out_bytes);
    CHECK(f.row_scalar_bytes == 4 * (d.row_params + d.row_outputs));
    // Some input is read again after its statistics: the class clusters are for.
    CHECK(passes > d.inputs);
    CHECK(f.structure == credit::Structure::ReductionReuse);
  }
}

namespace {

// Declarations that exist only here: one reads an input again after its statistic, the other
// reads each input once (scale y by the norm of x), which no cluster can speed up.
struct RereadDecl {
  static constexpr std::array<const char*, 1> inputs{"x"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<credit::OutputDecl, 1> outputs{{{"y", credit::OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<credit::StageDecl, 1> stages{{{1, 0b1}}};
  static constexpr unsigned apply_reads = 0b1;
};
struct OnePassDecl {
  static constexpr std::array<const char*, 2> inputs{"x", "y"};
  static constexpr std::array<const char*, 0> col_params{};
  static constexpr std::array<const char*, 0> row_params{};
  static constexpr std::array<credit::OutputDecl, 1> outputs{{{"z", credit::OutType::F32}}};
  static constexpr std::array<const char*, 0> row_outputs{};
  static constexpr std::array<credit::StageDecl, 1> stages{{{1, 0b01}}};
  static constexpr unsigned apply_reads = 0b10;
};

}  // namespace

TEST_CASE("the structural class follows from what a declaration reads", "[figures]") {
  const credit::StaticFigures reread = credit::static_figures_of<RereadDecl>();
  CHECK(reread.b_reread == 4);
  CHECK(reread.structure == credit::Structure::ReductionReuse);
  const credit::StaticFigures one_pass = credit::static_figures_of<OnePassDecl>();
  CHECK(one_pass.b_reread == 0);
  CHECK(one_pass.b_keep == 4);
  CHECK(one_pass.structure == credit::Structure::OnePassReduction);
}

TEST_CASE("find_workload names the known workloads when it fails", "[figures]") {
  CHECK(credit::find_workload("rms_softmax").name == "rms_softmax");
  CHECK_THROWS_AS(credit::find_workload("nosuch"), std::invalid_argument);
  std::string message;
  try {
    credit::find_workload("nosuch");
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  INFO("message: " << message);
  CHECK(message.find("nosuch") != std::string::npos);
  for (const Expected& e : kTable) CHECK(message.find(e.name) != std::string::npos);
}

TEST_CASE("slices partition the row into aligned pieces", "[figures]") {
  std::vector<int> widths;
  for (int n = 1; n <= 130; ++n) widths.push_back(n);  // includes every N < P
  for (int n : {1000, 4095, 4096, 4097, 50257, 65536, 128256, 151936, 262144}) widths.push_back(n);
  for (int n : widths) {
    for (int p = 1; p <= credit::SplitPolicy::max_cluster; ++p) {
      INFO("N=" << n << " P=" << p);
      const int per = (n + p - 1) / p;
      int next = 0;  // slices are in order, so each starts where the previous ended
      for (int c = 0; c < p; ++c) {
        const credit::Slice s = credit::slice_of(n, p, c);
        CAPTURE(c, s.lo, s.hi);
        REQUIRE(s.lo == next);
        REQUIRE(s.lo <= s.hi);
        if (s.hi > s.lo) REQUIRE(s.lo % credit::SplitPolicy::vec == 0);  // 16-byte aligned
        // A slice fits its plane, and the plane exceeds ceil(N/P) by at most the 7 floats
        // of slack that scratch_bytes budgets for (so Eq. 3 stays truthful).
        REQUIRE(s.hi - s.lo <= credit::plane_floats(n, p));
        REQUIRE(credit::plane_floats(n, p) <= per + 7);
        next = s.hi;
      }
      REQUIRE(next == n);
    }
  }
}

TEST_CASE("declared input domains: one source for the tool and the tests, naming real tensors", "[figures]") {
  const credit::WorkloadInfo& lars = credit::find_workload("lars");
  // LARS's momentum buffer is drawn at the step's size, or the check would be blind to the trust ratio.
  CHECK(lars.domain_of("m").kind == credit::Domain::Normal);
  CHECK(lars.domain_of("m").b < 1e-3f);
  CHECK(lars.domain_of("w").b == 1.0f);  // undeclared: standard normal
  const credit::WorkloadInfo& wvar = credit::find_workload("wvar_bwd");
  CHECK(wvar.domain_of("w").kind == credit::Domain::Uniform);
  CHECK(wvar.domain_of("w").a > 0.0f);  // weights must be positive
  CHECK(credit::find_workload("softmax_bwd").domain_of("z").logits);
  for (const auto& w : credit::all_workloads())
    for (const auto& [tensor, d] : w.domains) {
      INFO(w.name << " " << tensor);
      const bool named = std::find(w.inputs.begin(), w.inputs.end(), tensor) != w.inputs.end() ||
                         std::find(w.col_params.begin(), w.col_params.end(), tensor) != w.col_params.end() ||
                         std::find(w.row_params.begin(), w.row_params.end(), tensor) != w.row_params.end();
      CHECK(named);
      CHECK(d.b > 0.0f);
    }
}
