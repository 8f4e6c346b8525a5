// split_global's exchange constants in a build with the counter barrier (CREDIT_TAGGED_EXCHANGE=0, which this file is
// compiled with): the pair fitted on that exchange, not the tagged exchange's (core/records.hpp). A program of its
// own: the constants are inline variables, and one program must see one definition.
#include <cstdio>

#include "core/records.hpp"

int main() {
  static_assert(credit::kGlobalExchangeUs == 1.5 && credit::kGlobalExchangeSplitUs == 0.005,
                "a counter-barrier build keeps E's exchange pair");
  std::printf("counter barrier: global_exchange_us=%g global_exchange_split_us=%g\n", credit::kGlobalExchangeUs,
              credit::kGlobalExchangeSplitUs);
  return 0;
}
