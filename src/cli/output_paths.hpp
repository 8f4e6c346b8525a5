#pragma once
// Nothing a command writes may land on a file it reads (the CLI conventions): checked before any
// file is read or written.
#include <string>
#include <utility>
#include <vector>

namespace credit::cli {

// Exit 2 (CommandFailed) when an output path cannot be a file written there: a directory, a path whose
// directory does not exist, or "-" where that does not mean stdout (dash_is_stdout: --csv's). "" is none.
void check_output_path(const char* option, const std::string& path, bool dash_is_stdout);

// Exit 2 (CommandFailed) when an output (option name, path; "" for none, "-" for stdout) fails
// check_output_path (only --csv takes "-"), is the same file as one of the inputs (empty ones are
// skipped), or as another output.
void refuse_overwriting_inputs(const std::vector<std::string>& inputs,
                               const std::vector<std::pair<const char*, std::string>>& outputs);

}  // namespace credit::cli
