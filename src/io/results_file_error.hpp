#pragma once
// The error every results file reader throws, naming the file and the field.
#include <stdexcept>
#include <string>

namespace credit {

// A results file that cannot be used: message "FILE: FIELD.PATH: problem", e.g.
// "out/r.json: points[3].time_ms.median: expected a number, got string".
// A file that is no results file, or of another kind than the reader takes, is named with what it is
// and what was expected: "s.json: is a sweep results file, expected a calibration file".
class ResultsFileError : public std::runtime_error {
 public:
  ResultsFileError(std::string file, std::string field, const std::string& problem);
  const std::string& file() const noexcept { return file_; }
  const std::string& field() const noexcept { return field_; }  // "" for the file as a whole

 private:
  std::string file_, field_;
};

}  // namespace credit
