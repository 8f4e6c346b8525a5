#pragma once
// What the microbenchmark kernels and their host drivers agree on: the per-CTA record, the
// access kinds and the fixed sizes (host C++ and device code both include this).
#include <cstdint>

#include "core/split.hpp"

namespace credit::microbench {

// Written by thread 0 of every CTA: cycles of its timed region on its own SM, the SM it ran on
// (the host refuses clusters whose CTAs share an SM), and a value that keeps loads alive.
struct CtaSample {
  long long cycles;
  std::uint32_t smid;
  std::uint32_t sink;
};

enum class Access : int { LocalRead, LocalStore, RemoteRead, RemoteStore };

constexpr bool is_remote(Access a) { return a == Access::RemoteRead || a == Access::RemoteStore; }
constexpr bool is_read(Access a) { return a == Access::LocalRead || a == Access::RemoteRead; }

// Pointer chase: one thread follows a ring of 4-byte addresses; stride 33 is odd, so the ring
// visits all 4096 words.
struct ChasePolicy {
  static constexpr int threads = 128;  // only to build the ring quickly
  static constexpr int words = 4096;
  static constexpr int stride = 33;
  static constexpr int warm = 256;    // untimed loads first
  static constexpr int steps = 8192;  // timed dependent loads, a multiple of unroll
  static constexpr int unroll = 8;
};

// Throughput: every thread keeps `unroll` independent 16-byte accesses in flight over a 64 KB
// buffer (consecutive threads, consecutive 16 bytes: conflict-free).
struct ThroughputPolicy {
  // threads * unroll * 16 B = buffer_bytes: the accesses of one iteration are all distinct.
  static constexpr int threads = 512;
  static constexpr int unroll = 8;
  static constexpr int iters = 128;                // 8 MB per CTA per run
  static constexpr unsigned buffer_bytes = 65536;  // a power of two
  static constexpr long long bytes_per_cta = 16LL * unroll * iters * threads;
};

// Cluster barrier: the split kernels' CTA size, so the figure is the one they pay.
struct BarrierPolicy {
  static constexpr int threads = SplitPolicy::threads;
  static constexpr int iters = 1000;
};

}  // namespace credit::microbench
