#pragma once
// Where the library's progress and warnings go: the caller's sinks (the CLI passes spdlog's),
// none by default. A library routine says what it does without depending on a logging library.
#include <fmt/format.h>

#include <functional>
#include <string>
#include <utility>

namespace credit {

struct Log {
  std::function<void(const std::string&)> info_sink, warn_sink;

  template <class... A>
  void info(fmt::format_string<A...> f, A&&... a) const {
    if (info_sink) info_sink(fmt::format(f, std::forward<A>(a)...));
  }
  template <class... A>
  void warn(fmt::format_string<A...> f, A&&... a) const {
    if (warn_sink) warn_sink(fmt::format(f, std::forward<A>(a)...));
  }
};

}  // namespace credit
