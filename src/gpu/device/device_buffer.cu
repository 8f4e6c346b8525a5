#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"

namespace credit::gpu {

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes) CREDIT_CUDA(cudaMalloc(&ptr_, bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);  // destructors must not throw; a fault shows at the next check
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = o.bytes_;
  }
  return *this;
}

void DeviceBuffer::upload(const void* host, size_t bytes) {
  CREDIT_CUDA(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice));
}

void DeviceBuffer::download(void* host, size_t bytes) const {
  CREDIT_CUDA(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost));
}

void DeviceBuffer::fill_bytes(int value) { CREDIT_CUDA(cudaMemset(ptr_, value, bytes_)); }

}  // namespace credit::gpu
