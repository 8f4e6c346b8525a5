#pragma once
// Nsight Compute's output read back (ncu --csv --page raw --print-units base --log-file F): one
// record per profiled kernel launch with its DRAM bytes. Whatever is not a clean measurement (an
// ==ERROR== line, a missing metric, "n/a", a unit other than bytes) throws: never a wrong number.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace credit::traffic {

inline constexpr const char* kReadMetric = "dram__bytes_read.sum";
inline constexpr const char* kWriteMetric = "dram__bytes_write.sum";

// Nothing can be measured here: ncu is missing, or may not read the GPU's performance counters
// (ERR_NVGPUCTRPERM). The CLI exits 3, as for no suitable GPU.
struct ProfilerUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The profiler ran, but what it reported cannot be used (an error, output that does not parse,
// kernels that do not match what was launched).
struct ProfilerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NcuKernel {
  long long id = 0;      // "ID": the launch's place among the profiled kernels
  std::string name;      // "Kernel Name" (demangled or not: matched by substring)
  long long grid_x = 0;  // first extent of "Grid Size"; 0 where ncu printed no such column
  double read_bytes = 0, write_bytes = 0;
};

// Reads ncu's log: ==PROF== and ==WARNING== lines are skipped; ERR_NVGPUCTRPERM throws
// ProfilerUnavailable, any other ==ERROR== line ProfilerError, and so does a kernel profiled in
// more than one replay pass (credit prepares the L2 for one pass; see profile_traffic.hpp). Both CSV layouts are read:
// --page raw (a row per kernel, a column per metric, a row of units under the header) and
// --page details (a row per metric: "Metric Name", "Metric Unit", "Metric Value"). Values may
// carry thousands separators ("1,073,741,824"); the only unit taken is "byte" (credit asks for
// --print-units base; a raw page printed without its row of units is read in bytes).
// Returns the kernels in ID order.
std::vector<NcuKernel> parse_ncu_log(std::string_view text);

// Throws ProfilerUnavailable, with what to do, when `text` holds ncu's ERR_NVGPUCTRPERM.
void check_permission(std::string_view text);

// The fields of one CSV record (RFC 4180: quoted fields, "" for a quote inside one).
std::vector<std::string> csv_fields(std::string_view line);

}  // namespace credit::traffic
