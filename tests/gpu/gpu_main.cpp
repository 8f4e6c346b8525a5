// Catch2 main for the GPU tests: without a usable GPU they are skipped (exit 77, which CTest
// reports as "Skipped"), never passed.
#if CREDIT_CATCH_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdio>

#include "gpu/device_query.hpp"

int main(int argc, char* argv[]) {
  try {
    credit::gpu::use_device(0);
  } catch (const std::exception& e) {
    std::printf("SKIPPED: GPU tests need a Hopper GPU: %s\n", e.what());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
