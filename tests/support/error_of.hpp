#pragma once
// The message of what a callable throws (any std::exception), "" when it throws nothing: one way to check an
// error's text under Catch2 v2 and v3 alike.
#include <exception>
#include <string>

namespace credit::test {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace credit::test
