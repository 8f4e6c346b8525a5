#pragma once
// CREDIT_HD marks functions that run on both host and device: the workload
// declarations are compiled by g++ for the CPU execution and by nvcc for the kernels.
#if defined(__CUDACC__)
#define CREDIT_HD __host__ __device__ __forceinline__
#else
#define CREDIT_HD inline
#endif
