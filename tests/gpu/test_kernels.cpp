// Every workload x schedule x legal P against the float64 oracle, on fresh random inputs,
// with every output element poisoned before each run and checked after it.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include "catch.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_query.hpp"
#include "gpu/measure/phases.hpp"
#include "gpu/launch/schedules.hpp"
#include "gpu/launch/workspace.hpp"
#include "reference/reference64.hpp"
#include "support/random_problem.hpp"

using namespace credit;
using gpu::Schedule;

namespace {

// The host problem's tensors on the device, stored in element type t (inputs, column parameters and fp32
// outputs in bf16 or fp16, their bits from the host's rounding; per-row scalars fp32); outputs re-poisoned before
// every run. The host problem's inputs must already be rounded to t (HostProblem::round_inputs), so that the
// oracle sees what the kernel reads.
struct DeviceCopy {
  std::vector<gpu::DeviceBuffer> bufs;
  RowOperands op;
  gpu::Workspace ws;  // the launches' workspace, owned by the problem
  ElementType t;
  const WorkloadInfo* launch_as;  // the workload in t ("layernorm@bf16"): its kernels
  std::vector<size_t> out_bytes;  // per output, as stored

  explicit DeviceCopy(HostProblem& h, ElementType type = ElementType::F32)
      : t(type), launch_as(&in_type(*h.w, type)) {
    RowOperands host = h.operands();
    op = host;
    auto up = [&](const void* src, size_t bytes) {
      bufs.emplace_back(bytes);
      bufs.back().upload(src, bytes);
      return bufs.back().get();
    };
    auto stored = [&](const std::vector<float>& v) -> const float* {
      if (t == ElementType::F32) return static_cast<const float*>(up(v.data(), v.size() * 4));
      std::vector<std::uint16_t> bits(v.size());
      for (size_t i = 0; i < v.size(); ++i) bits[i] = to_bits(t, v[i]);
      return static_cast<const float*>(up(bits.data(), bits.size() * 2));
    };
    for (size_t k = 0; k < h.in.size(); ++k) op.in[k] = stored(h.in[k]);
    for (size_t k = 0; k < h.col.size(); ++k) op.col[k] = stored(h.col[k]);
    for (size_t k = 0; k < h.row_in.size(); ++k) op.row_in[k] = static_cast<const float*>(up(h.row_in[k].data(), h.row_in[k].size() * 4));
    for (size_t k = 0; k < h.out.size(); ++k) {
      const bool narrow = h.w->outputs[k].type != OutType::I8 && t != ElementType::F32;
      out_bytes.push_back(narrow ? h.out[k].size() / 2 : h.out[k].size());
      bufs.emplace_back(out_bytes.back());
      op.out[k] = bufs.back().get();
    }
    for (size_t k = 0; k < h.row_out.size(); ++k) op.row_out[k] = static_cast<float*>(up(h.row_out[k].data(), h.row_out[k].size() * 4));
  }

  void poison(const HostProblem& h) {  // 0xff bytes: NaN in every float type
    for (size_t k = 0; k < h.out.size(); ++k)
      CREDIT_CUDA(cudaMemset(op.out[k], h.w->outputs[k].type == OutType::I8 ? 0x80 : 0xff, out_bytes[k]));
    for (size_t k = 0; k < h.row_out.size(); ++k) CREDIT_CUDA(cudaMemset(op.row_out[k], 0xff, h.row_out[k].size() * 4));
  }

  void download(HostProblem& h) const {  // fp32 outputs stored narrower come back widened, exactly
    for (size_t k = 0; k < h.out.size(); ++k) {
      if (out_bytes[k] == h.out[k].size()) {
        CREDIT_CUDA(cudaMemcpy(h.out[k].data(), op.out[k], h.out[k].size(), cudaMemcpyDeviceToHost));
        continue;
      }
      std::vector<std::uint16_t> bits(out_bytes[k] / 2);
      CREDIT_CUDA(cudaMemcpy(bits.data(), op.out[k], out_bytes[k], cudaMemcpyDeviceToHost));
      auto* f = reinterpret_cast<float*>(h.out[k].data());
      for (size_t i = 0; i < bits.size(); ++i) f[i] = widen(t, bits[i]);
    }
    for (size_t k = 0; k < h.row_out.size(); ++k)
      CREDIT_CUDA(cudaMemcpy(h.row_out[k].data(), op.row_out[k], h.row_out[k].size() * 4, cudaMemcpyDeviceToHost));
  }
};

double l2_norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

const DeviceInfo& device() {
  static const DeviceInfo d = gpu::use_device(0);
  return d;
}

// Runs one configuration and checks every element against the oracle.
void check_against_oracle(HostProblem& h, DeviceCopy& d, const Reference64& ref, Schedule s, int p,
                          const gpu::LaunchOptions& opt = {}) {
  INFO(d.launch_as->name << " " << gpu::schedule_name(s) << " P=" << p << " M=" << h.m << " N=" << h.n << " barrier="
                 << int(opt.barrier) << " switches=" << opt.switches);
  h.poison_outputs();
  d.poison(h);
  d.ws.launch(*d.launch_as, s, p, d.op, device(), nullptr, opt);
  CREDIT_CUDA(cudaDeviceSynchronize());
  d.download(h);
  for (size_t k = 0; k < h.out.size(); ++k) {
    INFO("output " << h.w->outputs[k].name);
    if (h.w->outputs[k].type == OutType::I8) {
      std::vector<float> scale;
      const std::vector<int8_t> want = quant_int8_float32(h, &scale);
      size_t bad = 0;
      for (size_t i = 0; i < want.size(); ++i) bad += h.out_i8(int(k))[i] != want[i];
      CHECK(bad == 0);
      CHECK(std::memcmp(h.row_out[0].data(), scale.data(), scale.size() * 4) == 0);
    } else {  // 1e-5 in f32; plus the stored type's rounding (core/element_type.hpp), derived, not tuned
      const double e = rel_l2(h.out_f32(int(k)), ref.out[k]);
      const double tolerance = output_tolerance(d.t, l2_norm(ref.out[k]), double(ref.out[k].size()));
      CAPTURE(e, tolerance);
      CHECK(e <= tolerance);
    }
  }
  for (size_t k = 0; k < h.row_out.size(); ++k) {  // a row reduction's only output
    INFO("row output " << h.w->row_outputs[k]);
    const double e = rel_l2(h.row_out[k].data(), ref.row_out[k]);
    CAPTURE(e);
    CHECK(e <= 1e-5);
  }
}

struct Shape {
  long long m;
  int n;
};

void check_all_schedules(const WorkloadInfo& w, Shape sh, uint64_t seed, InputScale scale) {
  HostProblem h = make_random_problem(w, sh.m, sh.n, seed, scale);
  const Reference64 ref = reference64(h);
  DeviceCopy d(h);
  int ran = 0;
  for (const ScheduleTraits& t : schedule_traits()) {  // every schedule, those added later too
    const Schedule s = t.id;
    const bool global_split = s == Schedule::Megakernel || s == Schedule::LocalFusion || s == Schedule::Unfused;
    const std::vector<int> ps = t.split == Split::Cluster ? std::vector<int>{2, 4, 8, 16}
                                : t.split == Split::Spread ? std::vector<int>{2, 8, 32, 128}
                                : t.partial_ctas > 0   ? std::vector<int>{2, 16}
                                : global_split         ? std::vector<int>{1, 3, 8, 32}
                                                       : std::vector<int>{1};
    for (int p : ps) {
      const gpu::Support sup = gpu::can_implement(w, s, p, sh.m, sh.n, device());
      if (!sup.ok) {
        // Illegal configurations are refused with the reason, and never launched.
        CHECK_THROWS_AS(d.ws.launch(w, s, p, d.op, device(), nullptr), std::invalid_argument);
        continue;
      }
      check_against_oracle(h, d, ref, s, p);
      ++ran;
    }
  }
  CHECK(ran >= 2);  // at least global-reread and one cluster size run at every shape
}

// Every workload in bf16 and fp16 against the float64 oracle on the same rounded inputs, every schedule
// built in the type at each P it takes (the others refused, never launched).
void check_narrow_schedules(const WorkloadInfo& w, ElementType t, Shape sh, uint64_t seed) {
  HostProblem h = make_random_problem(w, sh.m, sh.n, seed);
  h.round_inputs(t);
  const Reference64 ref = reference64(h);
  DeviceCopy d(h, t);
  int ran = 0;
  for (const ScheduleTraits& tr : schedule_traits()) {
    const std::vector<int> ps = tr.split == Split::Cluster  ? std::vector<int>{2, 4, 8, 16}
                                : tr.split == Split::Global ? std::vector<int>{1, 4, 16}  // the megakernel
                                : tr.split == Split::Spread ? std::vector<int>{2, 8, 32, 128}
                                : tr.partial_ctas > 0       ? std::vector<int>{16}  // legal at wider rows only
                                                            : std::vector<int>{1};
    for (int p : ps) {
      if (!takes_p(tr.id, p)) continue;
      const gpu::Support sup = gpu::can_implement(*d.launch_as, tr.id, p, sh.m, sh.n, device());
      if (!sup.ok) {
        CHECK_THROWS_AS(d.ws.launch(*d.launch_as, tr.id, p, d.op, device(), nullptr), std::invalid_argument);
        continue;
      }
      check_against_oracle(h, d, ref, tr.id, p);
      ++ran;
    }
  }
  CHECK(ran >= 2);
}

}  // namespace

TEST_CASE("bf16 and fp16: every schedule matches the float64 oracle on the rounded inputs",
          "[gpu][dtype]") {
  // (8195, 24577 and 32768: the register families' bf16 widths, deep 256 x 8 and 512 x 8, wide 1024 x 4)
  const std::vector<Shape> shapes = {{1, 1},      {3, 7},       {3, 1000},    {2, 2049},   {3, 4097},
                                     {4096, 1000}, {3, 8195},   {2, 16387},   {2, 24577},  {3, 32768},
                                     {3, 50257},  {2, 65536},   {1, 131072},  {2, 262147}, {1, 262144}};
  uint64_t seed = 17000;
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const auto& w : all_workloads())
      for (const Shape& sh : shapes) check_narrow_schedules(w, t, sh, ++seed * 7919);
}

// The wide-row schedules in bf16 and fp16: partial retention (two CTAs and one CTA per SM) and split_global, at rows
// whose slices do not fit whole at the partial schedules' CTAs per SM. A bf16 plane holds twice
// the elements, so partial starts at about 900K elements with one plane kept (2 B per element) and 450K with two,
// partial_one at twice that. Ragged widths (the kept part ends, and the streamed part starts, inside a row that is not
// 16-byte aligned) and a power of two; 64 rows (several waves of clusters) for one and two planes.
TEST_CASE("bf16 and fp16: the wide-row schedules match the float64 oracle on the rounded inputs", "[gpu][dtype]") {
  uint64_t seed = 17900;
  std::map<Schedule, int> ran;
  for (ElementType t : {ElementType::BF16, ElementType::F16})
    for (const auto& w : all_workloads())
      for (Shape sh : {Shape{2, 1048579}, Shape{3, 2097157}, Shape{1, 2097152}, Shape{64, 1048576}}) {
        if (sh.m == 64 && (t != ElementType::BF16 || (w.name != "layernorm" && w.name != "softmax_bwd"))) continue;
        if (t == ElementType::F16 && sh.n == 2097152) continue;  // the ragged shapes suffice for the second type
        HostProblem h = make_random_problem(w, sh.m, sh.n, ++seed * 7919);
        h.round_inputs(t);
        const Reference64 ref = reference64(h);
        DeviceCopy d(h, t);
        for (const Schedule s : {Schedule::Partial, Schedule::PartialOne, Schedule::SplitGlobal})
          for (int p : {16, 32, 128}) {
            if (!takes_p(s, p)) continue;
            const gpu::Support sup = gpu::can_implement(*d.launch_as, s, p, sh.m, sh.n, device());
            if (traits_of(s).partial_ctas > 0) {  // legal exactly where the slice streams
              const bool streams = gpu::slice_elements(*d.launch_as, sh.n, p) > gpu::partial_keep(*d.launch_as, s, device());
              CHECK(sup.ok == streams);
            }
            if (!sup.ok) continue;
            check_against_oracle(h, d, ref, s, p);
            ++ran[s];
          }
      }
  CHECK(ran[Schedule::Partial] >= 20);
  CHECK(ran[Schedule::PartialOne] >= 8);
  CHECK(ran[Schedule::SplitGlobal] >= 40);
  // In bf16 the kept part holds twice the elements of fp32's in the same bytes.
  const WorkloadInfo& w = find_workload("softmax_bwd");
  const WorkloadInfo& b = in_type(w, ElementType::BF16);
  CHECK(gpu::partial_keep(b, Schedule::Partial, device()) >= 2 * gpu::partial_keep(w, Schedule::Partial, device()) - 8);
  CHECK(gpu::partial_keep(b, Schedule::Partial, device()) % 8 == 0);
  CHECK(gpu::can_implement(w, Schedule::Partial, 16, 1, 393216, device()).ok);       // fp32 streams at 3 x 2^17 ...
  CHECK_FALSE(gpu::can_implement(b, Schedule::Partial, 16, 1, 393216, device()).ok);  // ... bf16 keeps it whole
}

// Seed 001's megakernel in bf16 (its ladder's rungs): both barriers x every Fig. 6 switch (the retained bf16 planes
// reloaded from the inputs, spilled and read back), at rms_softmax's and layernorm's ragged and seed shapes.
TEST_CASE("bf16: the megakernel's barriers and Fig. 6 switches match the oracle", "[gpu][dtype]") {
  uint64_t seed = 17700;
  for (const char* name : {"rms_softmax", "layernorm"})
    for (Shape sh : {Shape{3, 4099}, Shape{16, 131072}}) {
      HostProblem h = make_random_problem(find_workload(name), sh.m, sh.n, ++seed);
      h.round_inputs(ElementType::BF16);
      const Reference64 ref = reference64(h);
      DeviceCopy d(h, ElementType::BF16);
      int ran = 0;
      for (auto barrier : {gpu::MegakernelBarrier::Row, gpu::MegakernelBarrier::Grid})
        for (unsigned sw = 0; sw < 4; ++sw)
          for (int p : {2, 8, 32}) {
            if (!gpu::can_implement(*d.launch_as, Schedule::Megakernel, p, sh.m, sh.n, device()).ok) continue;
            check_against_oracle(h, d, ref, Schedule::Megakernel, p, {barrier, sw});
            ++ran;
          }
      CHECK(ran >= 16);
    }
}

TEST_CASE("bf16: one ragged shape per workload (every schedule built in it)", "[sanitize]") {
  uint64_t seed = 17500;
  for (const auto& w : all_workloads()) check_narrow_schedules(w, ElementType::BF16, {3, 4099}, ++seed);
}

TEST_CASE("every schedule matches the float64 oracle at ragged and large shapes", "[gpu]") {
  const std::vector<Shape> shapes = {{3, 2049},  {3, 4097},   {2, 16384}, {2, 16387},
                                     {1, 1},     {3, 1},      {1, 1000},  {3, 1000},   {4096, 1000},
                                     {1, 4096},  {3, 4096},   {3, 50257}, {1, 65536},  {2, 65536},
                                     {4096, 4097}, {1, 131072}, {2, 131072}, {1, 262147}};
  uint64_t seed = 1;
  for (const auto& w : all_workloads())
    for (const Shape& sh : shapes) check_all_schedules(w, sh, ++seed * 7919, InputScale::Normal);
}

// Partial retention: rows up to 2^20 elements, ragged and a power of two, and 1024 rows,
// for each partial schedule (two CTAs per SM, and partial_one's one) wherever the slice of a
// cluster of 16 does not fit whole at its occupancy.
TEST_CASE("partial retention matches the oracle at wide rows", "[gpu]") {
  uint64_t seed = 13000;
  std::map<Schedule, int> ran;
  for (const auto& w : all_workloads())
    for (Shape sh : {Shape{3, 262147}, Shape{1, 524288}, Shape{3, 1048573}, Shape{1, 1048576}, Shape{1024, 131072},
                     Shape{1024, 524288}}) {
      // 1024 rows (many clusters in flight, the L2 holding streamed parts) for 4 and 8 B kept per element
      if (sh.m == 1024 && w.name != "layernorm" && w.name != "softmax_bwd") continue;
      if (sh.m == 1024 && sh.n == 524288 && w.name != "softmax_bwd") continue;  // partial_one at 1024 rows
      HostProblem h = make_random_problem(w, sh.m, sh.n, ++seed);
      const Reference64 ref = reference64(h);
      DeviceCopy d(h);
      for (const Schedule s : {Schedule::Partial, Schedule::PartialOne}) {
        INFO(w.name << " " << sh.m << "x" << sh.n << " " << schedule_name(s));
        // Legal exactly where the slice does not fit whole at the schedule's CTAs per SM (two CTAs,
        // 4 B kept per element: from N of about 450K; 8 B: about 230K; one CTA: twice that).
        const bool streams = slice_floats(sh.n, 16) > gpu::partial_keep(w, s, device());
        CHECK(gpu::can_implement(w, s, 16, sh.m, sh.n, device()).ok == streams);
        if (!streams) continue;
        check_against_oracle(h, d, ref, s, 16);
        ++ran[s];
      }
    }
  CHECK(ran[Schedule::Partial] >= 20);
  CHECK(ran[Schedule::PartialOne] >= 16);
  const WorkloadInfo& w = find_workload("softmax_bwd");  // 8 B kept per element: keeps about 14K (29K)
  CHECK_FALSE(gpu::can_implement(w, Schedule::Partial, 16, 1, 131072, device()).ok);  // fits whole
  CHECK_FALSE(gpu::can_implement(w, Schedule::Partial, 8, 1, 1048576, device()).ok);  // the largest cluster only
  CHECK_FALSE(gpu::can_implement(w, Schedule::Partial, 3, 1, 1048576, device()).ok);
  CHECK(gpu::can_implement(w, Schedule::Partial, 16, 1, 1048576, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::PartialOne, 16, 1, 262144, device()).ok);  // fits whole at one CTA
  CHECK(gpu::can_implement(w, Schedule::PartialOne, 16, 1, 524288, device()).ok);
  CHECK(gpu::partial_keep(w, Schedule::PartialOne, device()) > gpu::partial_keep(w, Schedule::Partial, device()));
}

// split_global: the row over 8 to 128 CTAs without a cluster, seated by tickets, partials
// through global memory. Wide rows and row counts, ragged ones too; 1024 rows (many rows in flight, seats taken
// as CTAs start) for 4 and 8 B kept per element. Every configuration runs twice on one workspace, the second launch relying on the
// counters the first left at zero.
TEST_CASE("split_global matches the oracle at wide rows", "[gpu]") {
  uint64_t seed = 26000;
  std::map<Schedule, int> ran;
  for (const auto& w : all_workloads())
    for (Shape sh : {Shape{1, 131072}, Shape{3, 262147}, Shape{1, 524288}, Shape{3, 1048573}, Shape{1, 1048576},
                     Shape{1024, 131072}, Shape{1024, 262144}}) {
      if (sh.m == 1024 && w.name != "layernorm" && w.name != "softmax_bwd") continue;
      HostProblem h = make_random_problem(w, sh.m, sh.n, ++seed);
      const Reference64 ref = reference64(h);
      DeviceCopy d(h);
      for (const Schedule s : {Schedule::SplitGlobal})
        for (int p : {8, 32, 128}) {
          // Legal where the slice and its scratch fit one CTA's shared memory and P CTAs fit the device.
          if (!gpu::can_implement(w, s, p, sh.m, sh.n, device()).ok) {
            CHECK(gpu::smem_bytes(w, s, p, sh.n, device()) > device().smem_per_block_optin);
            continue;
          }
          for (int twice = 0; twice < 2; ++twice) {
            INFO("launch " << twice + 1 << " on one workspace");
            check_against_oracle(h, d, ref, s, p);
          }
          ++ran[s];
        }
    }
  CHECK(ran[Schedule::SplitGlobal] >= 40);
  const WorkloadInfo& w = find_workload("softmax_bwd");  // 8 B kept per element
  CHECK(gpu::can_implement(w, Schedule::SplitGlobal, 128, 1, 1048576, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::SplitGlobal, 8, 1, 1048576, device()).ok);  // 1 MB per CTA
  CHECK_FALSE(gpu::can_implement(w, Schedule::SplitGlobal, 48, 1, 1048576, device()).ok);  // not a power of two
  CHECK_FALSE(gpu::can_implement(w, Schedule::SplitGlobal, 256, 1, 1048576, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::SplitGlobal, 1, 1, 4096, device()).ok);
  CHECK(gpu::can_implement(w, Schedule::SplitGlobal, 64, 1, 1048576, device()).ok);
}

// credit bench --phases: the stamps leave the outputs right, and every CTA's marks are in order, split_global's
// many waves (rows seated as others leave) included.
TEST_CASE("phase timelines of the split-row schedules, split_global's waves included", "[gpu]") {
  const WorkloadInfo& w = find_workload("softmax_bwd");
  HostProblem h = make_random_problem(w, 256, 131072, 27100);
  const Reference64 ref = reference64(h);
  DeviceCopy d(h);
  for (const auto& [s, p] : {std::pair{Schedule::Cluster, 8}, std::pair{Schedule::SplitGlobal, 32}}) {
    INFO(gpu::schedule_name(s) << " P=" << p);
    REQUIRE(gpu::can_implement(w, s, p, h.m, h.n, device()).ok);
    h.poison_outputs();
    d.poison(h);
    const std::vector<gpu::PhaseMark> marks = gpu::time_phases(w, s, p, d.op, device(), nullptr, 1);
    d.download(h);
    CHECK(rel_l2(h.out_f32(0), ref.out[0]) <= 1e-5);
    REQUIRE(marks.size() == size_t(2 * w.figures.L + 2));
    for (size_t k = 0; k < marks.size(); ++k) {
      INFO(marks[k].name);
      CHECK(marks[k].step_median_us >= 0.0);  // a CTA's later stamp never before its earlier one
      CHECK(marks[k].step_p90_us >= marks[k].step_median_us);
      CHECK(marks[k].max_us < 1e6);  // every CTA stamped every mark: no stamp left at zero or unwritten
      if (k > 0) CHECK(marks[k].median_us >= marks[k - 1].median_us);
    }
    CHECK(marks.back().max_us > 0.0);
  }
}

TEST_CASE("large-magnitude logits stay accurate", "[gpu]") {
  for (const char* name : {"softmax_bwd", "rms_softmax"})
    for (Shape sh : {Shape{3, 4096}, Shape{2, 50257}, Shape{1, 131072}})
      check_all_schedules(find_workload(name), sh, 4242 + sh.n, InputScale::LargeLogits);
}

// Far more rows than the device holds CTAs at once: the megakernel must split them into row
// groups (one cooperative launch each) and never wait at a row barrier for a CTA that cannot run.
TEST_CASE("the megakernel's row groups cover many more rows than fit at once", "[gpu]") {
  for (const char* name : {"rms_softmax", "wvar_bwd"}) {
    const WorkloadInfo& w = find_workload(name);
    HostProblem h = make_random_problem(w, 20000, 2048, 31337);
    const Reference64 ref = reference64(h);
    DeviceCopy d(h);
    for (int p : {4, 16}) {
      REQUIRE(gpu::max_active_clusters(w, Schedule::Megakernel, p, 2048, device()) < 20000 * p);
      check_against_oracle(h, d, ref, Schedule::Megakernel, p);
      check_against_oracle(h, d, ref, Schedule::Megakernel, p, {gpu::MegakernelBarrier::Grid, 0});
      check_against_oracle(h, d, ref, Schedule::Megakernel, p,
                           {gpu::MegakernelBarrier::Row, kReloadInputs | kSpillRetained});
      check_against_oracle(h, d, ref, Schedule::LocalFusion, p);
      if (gpu::can_implement(w, Schedule::Unfused, p, 20000, 2048, device()).ok)
        check_against_oracle(h, d, ref, Schedule::Unfused, p);
    }
  }
}

namespace {

// Every barrier kind x every Fig. 6 switch setting of the megakernel at each legal P.
void check_megakernel_variants(HostProblem& h, DeviceCopy& d, const Reference64& ref, std::initializer_list<int> ps) {
  for (auto barrier : {gpu::MegakernelBarrier::Row, gpu::MegakernelBarrier::Grid})
    for (unsigned sw = 0; sw < 4; ++sw)
      for (int p : ps) {
        if (!gpu::can_implement(*h.w, Schedule::Megakernel, p, h.m, h.n, device()).ok) continue;  // Eq. 3
        check_against_oracle(h, d, ref, Schedule::Megakernel, p, {barrier, sw});
      }
}

}  // namespace

// The megakernel's barriers and seed 001's Fig. 6 switches: every combination, every workload.
TEST_CASE("megakernel barriers and switches all match the oracle", "[gpu]") {
  uint64_t seed = 500;
  for (const auto& w : all_workloads())
    for (Shape sh : {Shape{3, 50257}, Shape{1, 131072}, Shape{16, 4099}}) {
      HostProblem h = make_random_problem(w, sh.m, sh.n, ++seed);
      const Reference64 ref = reference64(h);
      DeviceCopy d(h);
      check_megakernel_variants(h, d, ref, {2, 8});
    }
}

// The row barrier's counters are left zero by each launch (no memset between launches): a
// second problem right after the first must not pass a barrier on the first one's arrivals.
TEST_CASE("back-to-back megakernel launches on different inputs", "[gpu]") {
  const WorkloadInfo& w = find_workload("rms_softmax");
  HostProblem a = make_random_problem(w, 64, 32768, 1), b = make_random_problem(w, 64, 32768, 2);
  const Reference64 ra = reference64(a), rb = reference64(b);
  DeviceCopy da(a), db(b);
  for (int i = 0; i < 3; ++i) {
    da.ws.launch(w, Schedule::Megakernel, 16, da.op, device(), nullptr, {gpu::MegakernelBarrier::Row, 0});
    check_against_oracle(b, db, rb, Schedule::Megakernel, 16, {gpu::MegakernelBarrier::Row, 0});
    check_against_oracle(a, da, ra, Schedule::Megakernel, 16, {gpu::MegakernelBarrier::Row, 0});
  }
}

TEST_CASE("illegal configurations are refused before launch", "[gpu]") {
  const WorkloadInfo& w = find_workload("layernorm");
  HostProblem h = make_random_problem(w, 1, 131072, 9);
  DeviceCopy d(h);
  CHECK_FALSE(gpu::can_implement(w, Schedule::Cluster, 3, 1, 131072, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::Staged, 1, 1, 131072, device()).ok);  // 512 KB row
  CHECK_FALSE(gpu::can_implement(w, Schedule::Staged, 2, 1, 4096, device()).ok);
  CHECK_THROWS_AS(d.ws.launch(w, Schedule::Cluster, 3, d.op, device(), nullptr), std::invalid_argument);
  CHECK_FALSE(gpu::can_implement(w, Schedule::Megakernel, 0, 1, 4096, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::Megakernel, 65, 1, 4096, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::LocalFusion, 65, 1, 4096, device()).ok);
  CHECK_FALSE(gpu::can_implement(w, Schedule::Unfused, 8, 1, 4096, device()).ok);  // rms_softmax only
  CHECK(gpu::can_implement(find_workload("rms_softmax"), Schedule::Unfused, 8, 1, 4096, device()).ok);
  CHECK_THROWS_AS(d.ws.launch(w, Schedule::Cluster, 2, d.op, device(), nullptr, {gpu::MegakernelBarrier::Grid, 0}),
                  std::invalid_argument);
  CHECK(gpu::cuda_baseline(w, 131072, device()) == Schedule::GlobalReread);
  CHECK(gpu::cuda_baseline(w, 4096, device()) == Schedule::Staged);
}


// The launches that ask the L2 to keep the column parameters: few CTAs per SM, a workload with
// column parameters (the [sanitize] shape 3 x 50257 runs the hinted loads, ragged and scalar).
TEST_CASE("column parameters are kept in the L2 only where few CTAs share an SM", "[gpu]") {
  const WorkloadInfo& ln = find_workload("layernorm");
  CHECK(gpu::keep_columns_in_l2(ln, Schedule::Staged, 1, 50257, device()));       // 201 KB: one CTA per SM
  CHECK(gpu::keep_columns_in_l2(ln, Schedule::Cluster, 16, 740000, device()));    // 185 KB slices
  CHECK(gpu::keep_columns_in_l2(ln, Schedule::GlobalReread, 1, 50257, device()));  // two CTAs of 512 threads
  CHECK_FALSE(gpu::keep_columns_in_l2(ln, Schedule::Cluster, 16, 40000, device()));  // 10 KB slices: eight CTAs
  CHECK_FALSE(gpu::keep_columns_in_l2(ln, Schedule::Staged, 1, 4096, device()));
  CHECK_FALSE(gpu::keep_columns_in_l2(ln, Schedule::Registers, 1, 4096, device()));
  CHECK_FALSE(gpu::keep_columns_in_l2(find_workload("rms_softmax"), Schedule::Staged, 1, 50257, device()));
}
// Under compute-sanitizer (scripts/gpu-check.sh sanitize): every barrier and switch once.
// rms_softmax keeps its exponentials (one plane), wvar_bwd two inputs (two spill planes).
TEST_CASE("megakernel barriers and switches at one ragged shape", "[sanitize]") {
  for (const char* name : {"rms_softmax", "wvar_bwd"}) {
    const WorkloadInfo& w = find_workload(name);
    HostProblem h = make_random_problem(w, 3, 50257, 808);
    const Reference64 ref = reference64(h);
    DeviceCopy d(h);
    check_megakernel_variants(h, d, ref, {8});
  }
}

// One small ragged shape per workload: what scripts/gpu-check.sh runs under compute-sanitizer.
TEST_CASE("the register-resident kernels at ragged short rows, every variant of both families", "[sanitize]") {
  uint64_t seed = 77;
  for (Schedule s : {Schedule::Registers, Schedule::RegistersDeep}) {
    const long long widest = register_max_width(RegisterFamily(traits_of(s).register_family));
    for (const auto& w : all_workloads())
      for (Shape sh : {Shape{3, 3}, Shape{3, 1000}, Shape{3, 1023}, Shape{3, 2047}, Shape{3, 4097}, Shape{2, 8191},
                       Shape{2, 16383}}) {
        if (sh.n > widest || sh.n < register_min_width(RegisterFamily(traits_of(s).register_family))) continue;
        INFO(gpu::schedule_name(s) << " " << w.name << " " << sh.m << "x" << sh.n);
        REQUIRE(gpu::can_implement(w, s, 1, sh.m, sh.n, device()).ok);
        HostProblem h = make_random_problem(w, sh.m, sh.n, ++seed, InputScale::Normal);
        const Reference64 ref = reference64(h);
        DeviceCopy d(h);
        check_against_oracle(h, d, ref, s, 1);
      }
    CHECK_FALSE(gpu::can_implement(all_workloads()[0], s, 1, 1, widest + 1, device()).ok);
    const long long narrowest = register_min_width(RegisterFamily(traits_of(s).register_family));
    if (narrowest > 1) CHECK_FALSE(gpu::can_implement(all_workloads()[0], s, 1, 1, narrowest - 1, device()).ok);
  }
}

// The register-resident cluster kernel at ragged slices of every variant (each P, slices from a few
// elements to the widest, 8192), a few rows: what scripts/gpu-check.sh runs under compute-sanitizer.
TEST_CASE("the register-resident cluster kernel at ragged slices, every variant and cluster size", "[sanitize]") {
  uint64_t seed = 4242;
  const Schedule s = Schedule::ClusterRegisters;
  const long long widest = register_max_width(RegisterFamily::Cluster);
  for (const auto& w : all_workloads())
    for (int p : {2, 4, 8, 16})
      for (long long n : {3LL, 1000LL * p + 1, 2047LL * p, 4093LL * p, widest * p - 5}) {
        INFO(gpu::schedule_name(s) << " " << w.name << " P=" << p << " 3x" << n);
        REQUIRE(gpu::can_implement(w, s, p, 3, n, device()).ok);
        HostProblem h = make_random_problem(w, 3, n, ++seed, InputScale::Normal);
        const Reference64 ref = reference64(h);
        DeviceCopy d(h);
        check_against_oracle(h, d, ref, s, p);
      }
  // A slice one vector wider than the widest variant is refused, with the reason.
  const gpu::Support too_wide = gpu::can_implement(all_workloads()[0], s, 16, 1, widest * 16 + 64, device());
  CHECK_FALSE(too_wide.ok);
  CHECK(too_wide.reason.find("slices of at most") != std::string::npos);
  CHECK_FALSE(gpu::can_implement(all_workloads()[0], s, 1, 1, 1000, device()).ok);  // a cluster size only
}

// What scripts/gpu-check.sh runs under compute-sanitizer for the partial schedules: ragged rows
// whose slices stream part of themselves, one workload retaining 4 B per element and one 8 B
// (partial_one keeps twice as much: at 600001 only the 8 B one streams, at 1000003 both).
TEST_CASE("partial retention at one ragged wide row", "[sanitize]") {
  uint64_t seed = 1313;
  for (const char* name : {"rms_softmax", "softmax_bwd"})
    for (const int n : {600001, 1000003}) {
      const WorkloadInfo& w = find_workload(name);
      HostProblem h = make_random_problem(w, 2, n, ++seed);
      const Reference64 ref = reference64(h);
      DeviceCopy d(h);
      for (const Schedule s : {Schedule::Partial, Schedule::PartialOne}) {
        INFO(name << " 2x" << n << " " << schedule_name(s));
        const bool streams = slice_floats(n, 16) > gpu::partial_keep(w, s, device());
        REQUIRE(gpu::can_implement(w, s, 16, 2, n, device()).ok == streams);
        if (streams) check_against_oracle(h, d, ref, s, 16);
      }
    }
}

// The same in bf16, with split_global: the kept part of a 16-bit plane and the streamed rest.
TEST_CASE("bf16: the wide-row schedules at one ragged wide row", "[sanitize]") {
  uint64_t seed = 1717;
  for (const auto& [name, n] : {std::pair{"rms_softmax", 2000003}, std::pair{"softmax_bwd", 1000003}}) {
    const WorkloadInfo& w = find_workload(name);
    HostProblem h = make_random_problem(w, 2, n, ++seed);
    h.round_inputs(ElementType::BF16);
    const Reference64 ref = reference64(h);
    DeviceCopy d(h, ElementType::BF16);
    int ran = 0;
    for (const auto& [s, p] : {std::pair{Schedule::Partial, 16}, std::pair{Schedule::PartialOne, 16},
                               std::pair{Schedule::SplitGlobal, 128}}) {
      INFO(name << " 2x" << n << " " << schedule_name(s) << " P=" << p);
      REQUIRE(gpu::can_implement(*d.launch_as, s, p, 2, n, device()).ok);  // each streams part of its slice
      check_against_oracle(h, d, ref, s, p);
      ++ran;
    }
    CHECK(ran == 3);
  }
}

// split_global's seats and row barriers under the sanitizer: more rows than the device holds at once,
// so that CTAs take seats as others leave (racecheck sees the ticket's hand-off through shared memory). A ragged
// width: rows differ in alignment.
TEST_CASE("split_global over more rows than the device holds", "[sanitize]") {
  uint64_t seed = 2626;
  int ran = 0;
  for (const char* name : {"rms_softmax", "softmax_bwd", "layernorm"}) {
    const WorkloadInfo& w = find_workload(name);
    HostProblem h = make_random_problem(w, 160, 65543, ++seed);
    const Reference64 ref = reference64(h);
    DeviceCopy d(h);
    for (const Schedule s : {Schedule::SplitGlobal})
      for (int p : {4, 16}) {
        if (!gpu::can_implement(w, s, p, h.m, h.n, device()).ok) {
          CHECK(gpu::smem_bytes(w, s, p, h.n, device()) > device().smem_per_block_optin);
          continue;
        }
        check_against_oracle(h, d, ref, s, p);
        ++ran;
      }
  }
  CHECK(ran >= 6);  // every workload at P = 4 and 16
}

TEST_CASE("one ragged shape per workload, every schedule", "[sanitize]") {
  uint64_t seed = 77;
  for (const auto& w : all_workloads()) check_all_schedules(w, Shape{3, 50257}, ++seed, InputScale::Normal);
}

// The negative controls that the split-row kernels run: staged, global_reread and every
// cluster size against the oracle (an elementwise one has no stage and no exchange, a row sum no
// per-element output); every other schedule, and every schedule of a control declared whole-row,
// refused with the reason. scripts/gpu-check.sh negctl runs this under compute-sanitizer too.
TEST_CASE("negative controls on the split-row kernels", "[controls]") {
  uint64_t seed = 900;
  for (const auto& w : negative_controls()) {
    INFO(w.name);
    if (!w.not_split_row.empty()) {
      for (Schedule s : {Schedule::Staged, Schedule::GlobalReread, Schedule::Cluster, Schedule::Registers,
                         Schedule::RegistersDeep, Schedule::ClusterRegisters}) {
        const gpu::Support sup = gpu::can_implement(w, s, s == Schedule::Cluster ? 2 : 1, 3, 4096, device());
        CHECK_FALSE(sup.ok);
        CHECK(sup.reason.find(w.not_split_row) != std::string::npos);
      }
      continue;
    }
    for (Shape sh : {Shape{3, 1}, Shape{3, 1000}, Shape{3, 4096}, Shape{2, 50257}, Shape{1, 65536}})
      check_all_schedules(w, sh, ++seed, InputScale::Normal);
    for (Schedule s : {Schedule::Registers, Schedule::RegistersDeep, Schedule::Megakernel, Schedule::LocalFusion,
                       Schedule::ClusterRegisters, Schedule::SplitGlobal})
      CHECK_FALSE(gpu::can_implement(w, s, traits_of(s).split == Split::OneCta ? 1 : 2, 3, 4096, device()).ok);
  }
}
