#include "io/results_file_error.hpp"

#include <utility>

namespace credit {

ResultsFileError::ResultsFileError(std::string file, std::string field, const std::string& problem)
    : std::runtime_error(file + ": " + (field.empty() ? "" : field + ": ") + problem),
      file_(std::move(file)),
      field_(std::move(field)) {}

}  // namespace credit
