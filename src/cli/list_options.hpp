#pragma once
// List options as GPU engineers type them: "--P 2,4,8", "--P 2 4 8" and "--P 2,4 --P 8" are the
// same list. Every argument is checked as it is parsed, so an error names its own option and
// gives that option's example ("--widths: invalid list \"0\": ...; e.g. --widths 4096,65536").
#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/element_type.hpp"
#include "core/shape.hpp"

namespace credit::cli {

// --shape's value; its error names the option ("--shape: invalid shape \"12ax3\": ...").
inline Shape shape_option(const std::string& text) {
  try {
    return parse_shape(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--shape: ") + e.what());
  }
}

// --dtype's value (f32, bf16, f16); its error names the option, as --shape's does.
inline ElementType element_type_option(const std::string& text) {
  try {
    return parse_element_type(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--dtype: ") + e.what());
  }
}

inline constexpr const char* kWidthsHelp =
    "row widths N, in elements (not bytes); a range expands: FIRST:LAST:pow2 (powers of two, e.g. "
    "4096:65536:pow2) or FIRST:LAST:+STEP (e.g. 1024:4096:+1024)";

// A list of positive integers into `target` as one comma-separated string (what
// parse_int_list reads); `target`'s value on entry is the default shown by --help.
inline CLI::Option* add_int_list_option(CLI::App* cmd, const std::string& name, std::string& target,
                                        const std::string& description, const std::string& example) {
  auto* opt = cmd->add_option_function<std::vector<std::string>>(
      name,
      [&target](const std::vector<std::string>& args) {
        std::string joined;
        for (const auto& a : args) joined += (joined.empty() ? "" : ",") + a;
        target = joined;
      },
      description + " (comma- or space-separated)");
  opt->check(CLI::Validator(
      [name, example](std::string& arg) -> std::string {
        try {
          parse_int_list(arg);
          return "";
        } catch (const std::invalid_argument& e) {
          return std::string(e.what()) + "; e.g. " + name + " " + example;
        }
      },
      "", "int list"));
  if (!target.empty()) opt->default_str(target);
  return opt;
}

// A list of names (--workload, --schedule): "a,b", "a b" and "--x a --x b" alike.
inline CLI::Option* add_name_list_option(CLI::App* cmd, const std::string& name, std::vector<std::string>& target,
                                         const std::string& description) {
  return cmd->add_option(name, target, description + " (comma- or space-separated)")->delimiter(',');
}

}  // namespace credit::cli
