#pragma once
// Launching the kernels of every declared workload by name: the schedules of DESIGN.md
// section 2, a can_implement check before any launch (as CUTLASS does), and the CUDA baseline
// choice (staged when the row fits in one CTA, else global-reread).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/operands.hpp"
#include "core/split.hpp"
#include "core/workload_registry.hpp"
#include "credit/schedule.hpp"

namespace credit::gpu {

// Megakernel: seed 001's split row through global memory, P CTAs per row (any P from 1 to
// kMaxGlobalSplit) exchanging partials at row-scoped (or grid-wide) barriers in global memory,
// one cooperative launch per row group. LocalFusion: seed 001's L + 1 kernels with tile
// partials through global memory, P tiles per row. Unfused: seed 001's 9-kernel baseline
// (rms_softmax only), P tiles per row.
// Registers, RegistersDeep: the register-resident one-CTA kernels for short rows, two families of
// variants (core/split.hpp: N <= 16384, and 4097-16384 in fewer, deeper threads).
// Partial: the clustered kernel (P = 16) keeping only part of each slice in shared memory, so that
// two CTAs share an SM, and streaming the rest at every phase (wide rows). PartialOne: the same
// keeping as much as one CTA per SM holds (streams less, overlaps nothing on its SM).
// The enum and its names are public (include/credit/schedule.hpp).
using ::credit::Schedule;
using ::credit::schedule_name;
using ::credit::parse_schedule;

// How the megakernel waits: Auto takes the grid-wide barrier when a launch holds one row (seed
// 001's choice), else the row-scoped one. switches: bits of MegakernelSwitch (Fig. 6).
enum class MegakernelBarrier { Auto, Row, Grid };
struct LaunchOptions {
  MegakernelBarrier barrier = MegakernelBarrier::Auto;
  unsigned switches = 0;
};

struct Support {
  bool ok = false;
  std::string reason;  // why not, when !ok
};

// Whether (workload, schedule, p) can run at rows x n on this device, and why not.
// Staged and global-reread take p = 1; cluster takes p in {2, 4, 8, 16}; partial 16, where the slice
// does not fit whole at two CTAs per SM; megakernel, local fusion and unfused 1 to 64.
Support can_implement(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n,
                      const DeviceInfo& dev);

// The paper's CUDA baseline at this shape: staged when legal, else global-reread.
Schedule cuda_baseline(const WorkloadInfo& w, long long n, const DeviceInfo& dev);

// Device workspace (bytes) a launch needs: the megakernel's arrival counters, partials and spill
// planes, local fusion's tile partials, the unfused chain's intermediates; 0 for the others.
size_t workspace_bytes(const WorkloadInfo& w, Schedule s, int p, long long rows, long long n, const DeviceInfo& dev,
                       const LaunchOptions& opt = {});

// Launches asynchronously on `stream`, with the caller's workspace of at least workspace_bytes()
// bytes: zero-filled before its first launch of a shape, left ready for the next launch of the same
// shape (the megakernel's counters return to zero), so that launches can be captured in a graph.
// Throws std::invalid_argument when can_implement says no or the workspace is too small (nothing is
// launched) and CudaError when the launch fails.
void launch(const WorkloadInfo& w, Schedule s, int p, const RowOperands& device_operands,
            const DeviceInfo& dev, void* workspace, size_t workspace_bytes, cudaStream_t stream,
            const LaunchOptions& opt = {});

// Dynamic shared memory per CTA (bytes) the schedule requests.
long smem_bytes(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev);

// Elements of its slice a CTA of a partial-retention schedule keeps per plane in shared memory on this device, in the
// workload's stored type (core/split.hpp, partial_keep_elems).
long long partial_keep(const WorkloadInfo& w, Schedule s, const DeviceInfo& dev);
// Elements of the slice a CTA of P per row holds at width n: ceil(n / P) in whole 16-byte groups of the workload's
// type (core/split.hpp, slice_width), what a partial schedule keeps part of.
long long slice_elements(const WorkloadInfo& w, long long n, int p);

// Concurrent clusters of size p the device can hold for this workload and width
// (cudaOccupancyMaxActiveClusters); for the other schedules, concurrent CTAs.
int max_active_clusters(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev);

// Whether a launch asks the L2 to keep the column parameters (evict_last): the staged, global_reread,
// cluster and partial kernels of a workload with column parameters, where the device holds at most two
// of its CTAs per SM. There the rows a wave streams push the column parameters out of the L2 and few
// other loads hide the longer trips: layernorm's and rmsnorm's cluster of 16 at 380 x 740000 took 0.78
// of their time with the hint, their staged kernels at 4096 x 40000 0.71-0.73; at eight CTAs per SM it
// cost rmsnorm 6-9% (H200, 2026-12-02).
bool keep_columns_in_l2(const WorkloadInfo& w, Schedule s, int p, long long n, const DeviceInfo& dev);

// Threads, registers and static shared memory of every kernel the time model predicts for w
// (staged, global_reread, cluster and each register variant, named by register_kernel_name;
// cudaFuncGetAttributes): what it needs to compute occupancy offline.
std::vector<KernelResources> kernel_resources(const WorkloadInfo& w);

}  // namespace credit::gpu
