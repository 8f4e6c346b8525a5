#include "support/random_problem.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "support/parallel.hpp"

namespace {

// How one tensor is drawn: the declaration's domain (core/workload.hpp), the one source of input
// distributions for the tests and the tool's own inputs (gpu/launch/device_problem.cu).
using Draw = credit::Domain;

Draw draw_for(const credit::WorkloadInfo& w, std::string_view tensor) { return w.domain_of(tensor); }

// Elements drawn from one generator: chunks are seeded from the tensor's seed and their index, so
// a tensor is the same whatever the thread count, and the wide rows' inputs (up to 2^28 elements
// per tensor) are drawn on every core of the device machine instead of one.
constexpr size_t kDrawChunk = size_t(1) << 20;

void draw_chunk(uint64_t seed, size_t chunk, const Draw& d, InputScale s, float* out, size_t count) {
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(chunk), uint32_t(chunk >> 32)};
  std::mt19937_64 rng(seq);
  std::normal_distribution<double> normal(d.a, d.b);
  std::uniform_real_distribution<double> uniform(d.a, d.b);
  // Logits around 1e3 (1000 + 4 N(0,1)): exp overflows unless the row maximum is taken first,
  // while the softmax itself stays well conditioned, so the float64 oracle still applies.
  const bool large = d.logits && s == InputScale::LargeLogits;
  const double mul = large ? 4.0 : 1.0, shift = large ? 1000.0 : 0.0;
  for (size_t i = 0; i < count; ++i) {
    float x;
    do {  // never an exact zero: zeros hide unwritten or unread elements
      x = float(shift + mul * (d.kind == Draw::Normal ? normal(rng) : uniform(rng)));
    } while (x == 0.0f);
    out[i] = x;
  }
}

std::vector<float> draw_tensor(uint64_t seed, const Draw& d, size_t count, InputScale s) {
  std::vector<float> v(count);
  test::for_ranges((count + kDrawChunk - 1) / kDrawChunk, [&](size_t first, size_t last) {
    for (size_t c = first; c < last; ++c)
      draw_chunk(seed, c, d, s, v.data() + c * kDrawChunk, std::min(kDrawChunk, count - c * kDrawChunk));
  });
  return v;
}

const std::vector<float>& by_name(const std::vector<std::string>& names,
                                  const std::vector<std::vector<float>>& tensors,
                                  std::string_view name, const credit::WorkloadInfo& w) {
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return tensors[k];
  throw std::invalid_argument(w.name + " has no tensor named '" + std::string(name) + "'");
}

}  // namespace

credit::RowOperands HostProblem::operands() {
  credit::RowOperands op;
  for (size_t k = 0; k < in.size(); ++k) op.in[k] = in[k].data();
  for (size_t k = 0; k < col.size(); ++k) op.col[k] = col[k].data();
  for (size_t k = 0; k < row_in.size(); ++k) op.row_in[k] = row_in[k].data();
  for (size_t k = 0; k < out.size(); ++k) op.out[k] = out[k].data();
  for (size_t k = 0; k < row_out.size(); ++k) op.row_out[k] = row_out[k].data();
  op.rows = m;
  op.n = n;
  return op;
}

const std::vector<float>& HostProblem::input(std::string_view name) const {
  return by_name(w->inputs, in, name, *w);
}
const std::vector<float>& HostProblem::col_param(std::string_view name) const {
  return by_name(w->col_params, col, name, *w);
}
const std::vector<float>& HostProblem::row_param(std::string_view name) const {
  return by_name(w->row_params, row_in, name, *w);
}

void HostProblem::poison_outputs() {
  for (size_t k = 0; k < out.size(); ++k)
    std::memset(out[k].data(), w->outputs[k].type == credit::OutType::F32 ? 0xFF : 0x80,
                out[k].size());
  for (auto& r : row_out) r.assign(r.size(), std::numeric_limits<float>::quiet_NaN());
}

HostProblem make_random_problem(const credit::WorkloadInfo& w, long long m, int n, uint64_t seed,
                                InputScale scale) {
  HostProblem p;
  p.w = &w;
  p.m = m;
  p.n = n;
  std::mt19937_64 rng(seed);  // one seed per tensor, in the declaration's order
  const size_t elems = size_t(m) * size_t(n);
  for (const auto& name : w.inputs)
    p.in.push_back(draw_tensor(rng(), draw_for(w, name), elems, scale));
  for (const auto& name : w.col_params)
    p.col.push_back(draw_tensor(rng(), draw_for(w, name), size_t(n), scale));
  for (const auto& name : w.row_params)
    p.row_in.push_back(draw_tensor(rng(), draw_for(w, name), size_t(m), scale));
  for (const auto& o : w.outputs) p.out.emplace_back(elems * size_t(credit::out_bytes(o.type)));
  p.row_out.assign(w.row_outputs.size(), std::vector<float>(size_t(m)));
  p.poison_outputs();
  return p;
}

void HostProblem::round_inputs(credit::ElementType t) {
  for (auto* tensors : {&in, &col})
    for (auto& v : *tensors)
      for (float& x : v) x = credit::round_to(t, x);
}

void HostProblem::round_outputs(credit::ElementType t) {
  const size_t elems = size_t(m) * size_t(n);
  for (size_t k = 0; k < out.size(); ++k) {
    if (w->outputs[k].type != credit::OutType::F32) continue;  // int8 outputs stay int8
    float* y = reinterpret_cast<float*>(out[k].data());
    for (size_t i = 0; i < elems; ++i) y[i] = credit::round_to(t, y[i]);
  }
}
