#pragma once
// The one rule for every output path of every command (--json, --csv, --markdown, --html, run-sweep's
// results file and --resume, profile-launches' --manifest), checked here before any work starts:
//
// - "-" is stdout, for every output that can take it (--csv, --json where the command writes JSON,
//   --markdown, --html). The output is then stdout's only data: whatever the command prints to stdout
//   besides (its table, report's Markdown beside --html -) goes to stderr. Two outputs cannot both be
//   "-" (exit 2). An output that is rewritten as the work goes and read back (run-sweep's results file,
//   which --resume continues; the manifest) refuses "-" (exit 2), naming why.
// - A path that exists and is not a regular file (a character device, a FIFO, a socket) is written
//   through: opened and written in place, never replaced (a FIFO's reader gets the data; /dev/full
//   fails with "No space left on device", exit 1). The outputs that refuse "-" refuse these too. A block
//   device is refused (exit 2).
// - A symbolic link is followed: its final target is written atomically (a temporary file in the
//   target's directory, renamed over the target), so the link stays a link.
// - A regular file or a new name is written atomically beside itself (io/atomic_write.hpp).
// - Refused with exit 2 before any work: a directory given as the file, a missing directory (never
//   created), a directory no file can be created in (tried, not guessed from its mode bits: root may
//   write anywhere but /proc), an existing file that is not writable, an output that is one of the
//   command's inputs (links and other spellings included), two outputs naming the same file.
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/results_file.hpp"

namespace credit::cli {

struct OutputPath {
  std::string option;  // "--csv"; "" for none
  std::string path;    // "" none, "-" stdout
  // Empty: "-" is stdout and a device, FIFO or socket is written through. Else why this output must be a
  // file of its own (e.g. "a sweep's results file is rewritten as points complete and read back by
  // --resume"): "-" and such special files are refused with it.
  std::string file_only = {};
};

// Exit 2 (CommandFailed) when an output breaks the rule above: each checked, then each against every input
// (empty inputs skipped) and against the other outputs. Writes nothing (the probe of a directory is a file
// created and removed at once) and leaves stdout as it is.
void check_outputs(const std::vector<std::string>& inputs, const std::vector<OutputPath>& outputs);

// check_outputs; then, when one output is "-", makes stdout that output's alone: from here on what the
// command prints to stdout goes to stderr, and write_output("-", ...) to the original stdout. Every command
// calls it once, before any work.
void prepare_outputs(const std::vector<std::string>& inputs, const std::vector<OutputPath>& outputs);

// Whether an output took stdout (prepare_outputs with a "-").
bool stdout_is_taken();
// Where a command's human-readable table goes: stderr when an output took stdout, else stdout.
std::FILE* table_stream();

// Writes `contents` to an output checked by prepare_outputs: "-" to stdout, else write_file_atomically
// (through a device or FIFO, to a link's target). Throws std::runtime_error when writing fails (exit 1).
void write_output(const std::string& path, std::string_view contents);
// A results file (JSON, as write_results formats it) to an output: "-" to stdout, else write_results.
void write_results_output(const std::string& path, const ResultsFile& results);

// Whether an output may be written more than once as the work goes (bench and tune save every point, so that
// nothing measured is lost): a regular file or a new name. Stdout, a FIFO or a device gets the results once,
// at the end (a FIFO's reader would take the first copy and leave the next write waiting).
bool rewritable_output(const std::string& path);

// One output path against the rule alone (no inputs, no other outputs), "-" refused unless dash_is_stdout:
// exit 2 as check_outputs. "" is none.
void check_output_path(const char* option, const std::string& path, bool dash_is_stdout);

}  // namespace credit::cli
