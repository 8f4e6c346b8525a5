// The provenance every results file of this invocation records.
#include "cli/commands.hpp"
#include "io/meta.hpp"

namespace credit::cli {

Meta meta_of(const GlobalOptions& g) {
  std::vector<const char*> argv;
  for (const auto& s : g.argv) argv.push_back(s.c_str());
  return make_meta(int(argv.size()), argv.data());
}

}  // namespace credit::cli
