#pragma once
// Nothing a command writes may land on a file it reads (the CLI conventions): checked before any
// file is read or written.
#include <string>
#include <utility>
#include <vector>

namespace credit::cli {

// Exit 2 (CommandFailed) when an output (option name, path; "" or "-" for none) is the same file as
// one of the inputs (empty ones are skipped).
void refuse_overwriting_inputs(const std::vector<std::string>& inputs,
                               const std::vector<std::pair<const char*, std::string>>& outputs);

}  // namespace credit::cli
