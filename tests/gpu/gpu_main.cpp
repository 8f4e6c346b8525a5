// Catch2 main for the GPU tests: without a usable GPU they are skipped (exit 77, which CTest
// reports as "Skipped"), never passed.
#if CREDIT_CATCH_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdio>
#include <string_view>
#include <vector>

#include "gpu/device/device_query.hpp"
#include "gpu/skip.hpp"

int main(int argc, char* argv[]) {
  // --exit-77-when-skipped (ours, not Catch's): a run that skipped a test (CREDIT_SKIP) and failed none
  // exits 77 too, so that CTest reports it as skipped under Catch2 v2, which has no SKIP, as under v3.
  bool skipped_is_77 = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::string_view(argv[i]) == "--exit-77-when-skipped") skipped_is_77 = true;
    else args.push_back(argv[i]);
  }
  try {
    credit::gpu::use_device(0);
  } catch (const std::exception& e) {
    std::printf("SKIPPED: GPU tests need a Hopper GPU: %s\n", e.what());
    return 77;
  }
  const int rc = Catch::Session().run(static_cast<int>(args.size()), args.data());
  // Catch2 v3 returns 4 when every test case it ran was skipped.
  if (skipped_is_77 && credit::test::skipped_tests() > 0 && (rc == 0 || rc == 4)) {
    std::printf("SKIPPED: %d test case(s) could not run here (the reason is above)\n", credit::test::skipped_tests());
    return 77;
  }
  return rc;
}
