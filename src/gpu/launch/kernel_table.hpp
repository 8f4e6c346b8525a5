#pragma once
// The kernels of one workload as the launcher (schedules.cu) finds them by name. Every schedule
// is instantiated for the seven workloads there; the negative controls that the split-row kernels
// run get their staged, global-reread and clustered kernels from negative_control_kernels.cu,
// so they add no instantiation to schedules.cu, the slowest file to compile.
#include <string_view>

#include "core/element_type.hpp"
#include "core/operands.hpp"
#include "core/split.hpp"

namespace credit::gpu {

using Kernel = void (*)(RowOperands);

struct Kernels {
  Kernel staged, cluster, reread, mega_row, mega_grid;  // null where not instantiated
  Kernel fused[kMaxStages + 1];  // local fusion: stages 0..L-1, then apply at L
  Kernel registers[kRegisterVariantCount];  // one per RegisterVariant
  long (*split_smem)(long n, int p);
  int stats, stages, retained;  // Q, L and the retained planes: the global schedules' scratch
  Kernel partial;      // the clustered kernel keeping part of each slice (Stream = true), two CTAs per SM
  Kernel partial_one;  // the same sized for one CTA per SM
  Kernel split_global;  // the split-row kernel seated by tickets, partials through global memory
  int vec = SplitPolicy::vec;  // elements per 16-byte group of the kernels' type: 4 floats, 8 bf16 / fp16
};

// The register-resident kernels of a workload, one per RegisterVariant (register_kernels.cu). False (out untouched)
// for a name that is not a workload's.
bool register_kernels_of(std::string_view workload, Kernel (&out)[kRegisterVariantCount]);
// The same stored in bf16 (register_kernels_bf16.cu) or fp16 (register_kernels_f16.cu), one translation unit each so
// that they compile side by side.
bool register_kernels_bf16(std::string_view workload, Kernel (&out)[kRegisterVariantCount]);
bool register_kernels_f16(std::string_view workload, Kernel (&out)[kRegisterVariantCount]);

// Adds to k the wide-row kernels of a workload (partial, partial_one, split_global; gpu/kernel_sets/wide_kernel_set.cuh): in fp32
// (wide_kernels.cu), bf16 (wide_kernels_bf16.cu) or fp16 (wide_kernels_f16.cu). False (k untouched) for a name that is
// not a workload's.
bool wide_kernels_f32(std::string_view workload, Kernels& k);
bool wide_kernels_bf16(std::string_view workload, Kernels& k);
bool wide_kernels_f16(std::string_view workload, Kernels& k);
// The kernels of a workload stored in bf16 or fp16 (narrow_kernels.cu); nullptr for f32 or a name that is not a
// workload's.
const Kernels* narrow_kernels(std::string_view workload, ElementType type);
// The staged, cluster and global-reread kernels of a negative control the split-row kernels run
// (every other entry null); nullptr for any other name.
const Kernels* negative_control_kernels(std::string_view name);

}  // namespace credit::gpu
