// Output paths: one rule for every output option (see src/cli/output_paths.hpp).
#include "catch.hpp"
