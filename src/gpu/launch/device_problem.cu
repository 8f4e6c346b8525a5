#include <cmath>
#include <cstring>

#include "core/element_type.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/launch/device_problem.hpp"
#include "kernels/element_access.cuh"

namespace credit::gpu {

namespace {

__device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__device__ float uniform01(std::uint64_t h) {  // (0, 1]
  return (float((h >> 40) & 0xffffff) + 1.0f) * (1.0f / 16777216.0f);
}

// The declaration's domain: U(a, b), or N(a, (scale b)^2) by Box-Muller; stored as E (rounded to nearest even).
template <class E>
__global__ void fill_random(E* p, size_t n, std::uint64_t seed, Domain d, float scale) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const std::uint64_t h1 = splitmix64(seed ^ (2 * i)), h2 = splitmix64(seed ^ (2 * i + 1));
    if (d.kind == Domain::Uniform) {
      p[i] = kernels::from_float<E>(d.a + (d.b - d.a) * uniform01(h1));
    } else {
      const float r = sqrtf(-2.0f * logf(uniform01(h1))), t = 6.2831853f * uniform01(h2);
      p[i] = kernels::from_float<E>(d.a + scale * d.b * r * cosf(t));
    }
  }
}

__global__ void count_poison_f32(const unsigned* p, size_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    c += p[i] == 0xffffffffu;
  if (c) atomicAdd(count, c);
}

__global__ void count_poison_16(const unsigned short* p, size_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    c += p[i] == 0xffffu;
  if (c) atomicAdd(count, c);
}

__global__ void count_poison_i8(const signed char* p, size_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    c += p[i] == -128;
  if (c) atomicAdd(count, c);
}

constexpr int kFillBlocks = 4096, kFillThreads = 256;

// The same values in every element type (one generator), each rounded once to the stored type.
DeviceBuffer random_buffer(size_t count, std::uint64_t seed, const Domain& d, float scale, ElementType t) {
  DeviceBuffer b(count * size_t(element_bytes(t)));
  if (t == ElementType::F32) fill_random<<<kFillBlocks, kFillThreads>>>(b.get<float>(), count, seed, d, scale);
  else if (t == ElementType::BF16)
    fill_random<<<kFillBlocks, kFillThreads>>>(b.get<__nv_bfloat16>(), count, seed, d, scale);
  else fill_random<<<kFillBlocks, kFillThreads>>>(b.get<__half>(), count, seed, d, scale);
  CREDIT_CUDA_LAUNCHED();
  return b;
}

// Bytes per element of output k as stored: int8, or the workload's element type.
size_t stored_out_bytes(const WorkloadInfo& w, size_t k) {
  return w.outputs[k].type == OutType::I8 ? 1 : size_t(element_bytes(w.element()));
}

// Row-major values of a stored type widened to fp32 (exactly).
void widen_to_f32(ElementType t, const unsigned char* src, size_t count, float* dst) {
  if (t == ElementType::F32) {
    std::memcpy(dst, src, count * 4);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    std::uint16_t bits;
    std::memcpy(&bits, src + 2 * i, 2);
    dst[i] = widen(t, bits);
  }
}

}  // namespace

DeviceProblem::DeviceProblem(const WorkloadInfo& w, long long rows, long long n, std::uint64_t seed,
                             float scale)
    : w_(&w) {
  const size_t elems = size_t(rows) * size_t(n);
  std::uint64_t s = seed * 0x100000001b3ull;
  for (size_t k = 0; k < w.inputs.size(); ++k) {
    in_.push_back(random_buffer(elems, ++s, w.domain_of(w.inputs[k]), scale, w.element()));
    op_.in[k] = in_.back().get<const float>();
  }
  for (size_t k = 0; k < w.col_params.size(); ++k) {
    col_.push_back(random_buffer(size_t(n), ++s, w.domain_of(w.col_params[k]), 1.0f, w.element()));
    op_.col[k] = col_.back().get<const float>();
  }
  for (size_t k = 0; k < w.row_params.size(); ++k) {
    row_in_.push_back(random_buffer(size_t(rows), ++s, w.domain_of(w.row_params[k]), 1.0f, ElementType::F32));
    op_.row_in[k] = row_in_.back().get<const float>();
  }
  for (size_t k = 0; k < w.outputs.size(); ++k) {
    out_.emplace_back(elems * stored_out_bytes(w, k));
    op_.out[k] = out_.back().get();
  }
  for (size_t k = 0; k < w.row_outputs.size(); ++k) {
    row_out_.emplace_back(size_t(rows) * sizeof(float));
    op_.row_out[k] = row_out_.back().get<float>();
  }
  op_.rows = rows;
  op_.n = int(n);
  poison_outputs();
  CREDIT_CUDA(cudaDeviceSynchronize());
}

void DeviceProblem::poison_outputs() {
  for (size_t k = 0; k < out_.size(); ++k)
    CREDIT_CUDA(cudaMemset(out_[k].get(), w_->outputs[k].type == OutType::I8 ? 0x80 : 0xff, out_[k].bytes()));
  for (auto& b : row_out_) CREDIT_CUDA(cudaMemset(b.get(), 0xff, b.bytes()));
  // cudaMemset is asynchronous and the kernels run on other (non-blocking) streams: finish
  // the poison before anything is launched, or it lands on top of the results.
  CREDIT_CUDA(cudaDeviceSynchronize());
}

long long DeviceProblem::count_poisoned() const {
  DeviceBuffer count(sizeof(unsigned long long));
  count.fill_bytes(0);
  for (size_t k = 0; k < out_.size(); ++k) {
    if (w_->outputs[k].type == OutType::I8)
      count_poison_i8<<<kFillBlocks, kFillThreads>>>(out_[k].get<const signed char>(), out_[k].bytes(),
                                                     count.get<unsigned long long>());
    else if (w_->element() != ElementType::F32)  // 0xffff: a NaN in bf16 and fp16
      count_poison_16<<<kFillBlocks, kFillThreads>>>(out_[k].get<const unsigned short>(), out_[k].bytes() / 2,
                                                     count.get<unsigned long long>());
    else
      count_poison_f32<<<kFillBlocks, kFillThreads>>>(out_[k].get<const unsigned>(), out_[k].bytes() / 4,
                                                      count.get<unsigned long long>());
    CREDIT_CUDA_LAUNCHED();
  }
  for (const auto& b : row_out_) {
    count_poison_f32<<<kFillBlocks, kFillThreads>>>(b.get<const unsigned>(), b.bytes() / 4,
                                                    count.get<unsigned long long>());
    CREDIT_CUDA_LAUNCHED();
  }
  unsigned long long c = 0;
  count.download(&c, sizeof c);
  return (long long)c;
}

DeviceProblem::HostRows DeviceProblem::download_rows(const std::vector<long long>& rows) const {
  HostRows h;
  const size_t n = size_t(op_.n), r = rows.size();
  const ElementType t = w_->element();
  const size_t eb = size_t(element_bytes(t));
  std::vector<unsigned char> stored(n * eb);
  auto copy_row = [&](const void* base, size_t elem_bytes, long long row, void* dst) {
    CREDIT_CUDA(cudaMemcpy(dst, static_cast<const char*>(base) + size_t(row) * n * elem_bytes,
                           n * elem_bytes, cudaMemcpyDeviceToHost));
  };
  // A row of a tensor stored in the element type, widened to fp32 (what the kernels computed from).
  auto copy_row_f32 = [&](const void* base, long long row, float* dst) {
    copy_row(base, eb, row, stored.data());
    widen_to_f32(t, stored.data(), n, dst);
  };
  for (size_t k = 0; k < in_.size(); ++k) {
    h.in.emplace_back(r * n);
    for (size_t i = 0; i < r; ++i) copy_row_f32(in_[k].get(), rows[i], h.in.back().data() + i * n);
  }
  for (const auto& b : col_) {
    h.col.emplace_back(n);
    copy_row_f32(b.get(), 0, h.col.back().data());
  }
  for (const auto& b : row_in_) {
    h.row_in.emplace_back(r);
    for (size_t i = 0; i < r; ++i)
      CREDIT_CUDA(cudaMemcpy(&h.row_in.back()[i], b.get<const float>() + rows[i], 4, cudaMemcpyDeviceToHost));
  }
  for (size_t k = 0; k < out_.size(); ++k) {  // laid out as declared: fp32 outputs widened to 4 bytes, int8 as is
    const size_t ob = size_t(out_bytes(w_->outputs[k].type));
    h.out.emplace_back(r * n * ob);
    for (size_t i = 0; i < r; ++i) {
      unsigned char* dst = h.out.back().data() + i * n * ob;
      if (w_->outputs[k].type == OutType::I8) copy_row(out_[k].get(), 1, rows[i], dst);
      else copy_row_f32(out_[k].get(), rows[i], reinterpret_cast<float*>(dst));
    }
  }
  for (const auto& b : row_out_) {
    h.row_out.emplace_back(r);
    for (size_t i = 0; i < r; ++i)
      CREDIT_CUDA(cudaMemcpy(&h.row_out.back()[i], b.get<const float>() + rows[i], 4, cudaMemcpyDeviceToHost));
  }
  for (size_t k = 0; k < h.in.size(); ++k) h.operands.in[k] = h.in[k].data();
  for (size_t k = 0; k < h.col.size(); ++k) h.operands.col[k] = h.col[k].data();
  for (size_t k = 0; k < h.row_in.size(); ++k) h.operands.row_in[k] = h.row_in[k].data();
  for (size_t k = 0; k < h.out.size(); ++k) h.operands.out[k] = h.out[k].data();
  for (size_t k = 0; k < h.row_out.size(); ++k) h.operands.row_out[k] = h.row_out[k].data();
  h.operands.rows = (long long)r;
  h.operands.n = op_.n;
  return h;
}

}  // namespace credit::gpu
