#include "cli/output_paths.hpp"

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"

namespace credit::cli {

void refuse_overwriting_inputs(const std::vector<std::string>& inputs,
                               const std::vector<std::pair<const char*, std::string>>& outputs) {
  for (const auto& in : inputs)
    for (const auto& [option, out] : outputs)
      if (!in.empty() && !out.empty() && out != "-" && same_file(in, out))
        throw CommandFailed(std::string(option) + " " + out + " is one of the input files: refusing to overwrite it",
                            kExitBadInput);
}

}  // namespace credit::cli
