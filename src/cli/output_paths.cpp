#include "cli/output_paths.hpp"

#include <filesystem>

#include "cli/commands.hpp"
#include "io/atomic_write.hpp"

namespace credit::cli {

void check_output_path(const char* option, const std::string& path, bool dash_is_stdout) {
  if (path.empty() || (path == "-" && dash_is_stdout)) return;
  if (path == "-")
    throw CommandFailed(std::string(option) + " -: this output goes to a file (stdout carries the tables): give a path",
                        kExitBadInput);
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw CommandFailed(std::string(option) + " " + path + " is a directory: give a file path", kExitBadInput);
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw CommandFailed(std::string(option) + " " + path + ": no directory " + parent.string() + " to write it in",
                        kExitBadInput);
}

void refuse_overwriting_inputs(const std::vector<std::string>& inputs,
                               const std::vector<std::pair<const char*, std::string>>& outputs) {
  for (const auto& [option, out] : outputs) check_output_path(option, out, std::string(option) == "--csv");
  for (const auto& in : inputs)
    for (const auto& [option, out] : outputs)
      if (!in.empty() && !out.empty() && out != "-" && same_file(in, out))
        throw CommandFailed(std::string(option) + " " + out + " is one of the input files: refusing to overwrite it",
                            kExitBadInput);
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t j = i + 1; j < outputs.size(); ++j) {
      const auto& [a, pa] = outputs[i];
      const auto& [b, pb] = outputs[j];
      if (!pa.empty() && !pb.empty() && pa != "-" && same_file(pa, pb))
        throw CommandFailed(std::string(a) + " and " + b + " name the same file, " + pa + ": one would overwrite the other",
                            kExitBadInput);
    }
}

}  // namespace credit::cli
