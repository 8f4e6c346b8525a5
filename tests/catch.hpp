#pragma once
// One include for Catch2 v2 (single header) and v3 (split headers).
#if CREDIT_CATCH_MAJOR >= 3
#include <catch2/catch_all.hpp>
using Catch::Approx;  // v2 has it at global scope; v3 only as Catch::Approx (the GPU machine has v3)
#else
#include <catch2/catch.hpp>
#endif
