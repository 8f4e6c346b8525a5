#pragma once
// Bring your own workload: declare a row-wise operator in your own .cu the way credit's own workloads are
// declared (src/core/workloads/*.hpp: its inputs, stages of statistics with their combine
// operators, contribute / finish / apply; the rules are core/workload.hpp's
// declaration_is_valid), include this header, and run credit's staged, global-reread or
// clustered kernel instantiated for it. Nothing in credit is edited or rebuilt: the kernels
// compile in your build (nvcc for sm_90 with -std=c++20 --expt-relaxed-constexpr, which linking
// credit::credit adds to CUDA sources). examples/own_workload.cu is a complete program.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "core/operands.hpp"
#include "core/split.hpp"
#include "core/workload.hpp"
#include "credit/schedule.hpp"
#include "gpu/launch/row_launch.hpp"
#include "kernels/global_reread_kernel.cuh"
#include "kernels/split_row_kernel.cuh"

namespace credit {

// Dynamic shared memory (bytes) a CTA of schedule s requests for W at width n: the slice it keeps
// plus its scratch (Eq. 3) for staged and cluster; none for global_reread.
template <class W>
long declared_smem_bytes(Schedule s, int p, long long n) {
  if (s == Schedule::Staged) return split_smem_bytes<W>(long(n), 1);
  if (s == Schedule::Cluster) return split_smem_bytes<W>(long(n), p);
  return 0;
}

// Why W cannot run as (s, p) at rows x n on the current device; "" when it can.
template <class W>
std::string declared_refusal(Schedule s, int p, long long rows, long long n) {
  static_assert(declaration_is_valid<W>(), "the declaration breaks a rule of core/workload.hpp");
  if (s != Schedule::Staged && s != Schedule::GlobalReread && s != Schedule::Cluster)
    return std::string(schedule_name(s)) + ": a declared workload runs staged, global_reread or cluster";
  if (!takes_p(s, p)) return std::string(schedule_name(s)) + " does not take P = " + std::to_string(p);
  if (rows < 1 || n < 1 || n > (1LL << 30) || rows * p > 0x7fffffffLL)
    return "rows and width must be at least 1, width at most 2^30 and rows x P below 2^31";
  int device = 0, optin = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
    return "no CUDA device";
  if (const long smem = declared_smem_bytes<W>(s, p, n); smem > optin)
    return "Eq. 3: ceil(N/P)*b_keep + S_scratch = " + std::to_string(smem) + " B exceeds the device's " +
           std::to_string(optin) + " B of shared memory per block";
  return "";
}

// Launches W's kernel for (s, p) on `stream` with the caller's device tensors (RowOperands, in the
// declaration's order; row tensors and column parameters 16-byte aligned, as cudaMalloc returns them). Throws
// std::invalid_argument when declared_refusal says no or a tensor is null or misaligned (nothing is launched)
// and std::runtime_error naming the CUDA call that failed.
template <class W>
void launch_declared(Schedule s, int p, const RowOperands& op, cudaStream_t stream) {
  if (const std::string why = declared_refusal<W>(s, p, op.rows, op.n); !why.empty()) throw std::invalid_argument(why);
  if (const std::string why = operands_refusal(op, int(W::inputs.size()), int(W::col_params.size()),
                                               int(W::row_params.size()), int(W::outputs.size()),
                                               int(W::row_outputs.size()));
      !why.empty())
    throw std::invalid_argument(why);
  auto check = [](cudaError_t e, const char* call) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(e));
  };
  using Kernel = void (*)(RowOperands);
  const Kernel k = s == Schedule::Staged    ? &kernels::split_row_kernel<W, kernels::LocalExchange>
                   : s == Schedule::Cluster ? &kernels::split_row_kernel<W, kernels::DsmemExchange>
                                            : &kernels::global_reread_kernel<W>;
  const int threads = s == Schedule::GlobalReread ? kernels::RereadPolicy::threads : SplitPolicy::threads;
  const long smem = declared_smem_bytes<W>(s, p, op.n);
  if (smem > 0)
    check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)), "cudaFuncSetAttribute");
  if (s == Schedule::Cluster)  // P = 16 exceeds the portable cluster size of 8 on Hopper
    check(gpu::allow_cluster_launch(k), "cudaFuncSetAttribute");
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg =
      gpu::row_launch_config(op.rows, s == Schedule::Cluster ? p : 1, threads, smem, s == Schedule::Cluster, stream, &attr);
  check(cudaLaunchKernelEx(&cfg, k, op), "cudaLaunchKernelEx");
  check(cudaGetLastError(), "the launch");
}

}  // namespace credit
