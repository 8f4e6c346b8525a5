#pragma once
// The tests' host work spread over the machine's cores (the oracle's rows, the input draws): the wide-row
// GPU tests would otherwise hold the device while one core computes.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace test {

// Splits `items` into as many contiguous ranges as there are cores (at most `items`) and runs
// fn(first, last) on each, one thread per range (inline when there is one); rethrows the first
// exception a range threw.
template <class Fn>
void for_ranges(std::size_t items, Fn fn) {
  const std::size_t parts = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(items, 1));
  if (parts == 1) return fn(std::size_t(0), items);
  std::vector<std::exception_ptr> failed(parts);
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < parts; ++t)
    pool.emplace_back([&, t] {
      try {
        fn(items * t / parts, items * (t + 1) / parts);
      } catch (...) {
        failed[t] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace test
