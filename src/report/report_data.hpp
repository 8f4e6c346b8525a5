#pragma once
// The numbers behind `credit report`: results files read, grouped by device (name + uuid), and
// joined per shape into CREDIT's best clustered P against every baseline that was measured.
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/results_file.hpp"
#include "core/sweep_point.hpp"
#include "sweep/selection.hpp"
#include "sweep/sweep_summary.hpp"
#include "core/dram_traffic.hpp"

namespace credit::report {

struct BaselineName {
  std::string_view key, label;
};
// The CUDA one-CTA path (staged or global reread, as the shape's predictions chose it).
inline constexpr BaselineName kCuda{"cuda", "CUDA"};
// Framework baselines (scripts/torch_baselines.py: schedules with p = 1), in display order.
inline constexpr BaselineName kTorchCompile{"torch_compile", "torch.compile"}, kTriton{"triton", "Triton"},
    kTorchEager{"torch_eager", "PyTorch eager"};
inline constexpr std::array<BaselineName, 3> kFrameworks{kTorchCompile, kTriton, kTorchEager};
std::string_view baseline_label(std::string_view key);  // "cuda" -> "CUDA", ..., unknown: the key

struct Input {
  std::string path, kind, utc_time, git_sha;
  int device = 0;  // index into ReportData::devices
  double copy_gbps = 0;
  std::size_t points = 0, predictions = 0;
  bool has_calibration = false;
};

struct Device {
  DeviceInfo info;
  std::string tag;    // "D1", "D2", ... in order of first appearance
  std::string label;  // "NVIDIA H200 [GPU-bdd032b1]"
};

// Table II column group: one per device, from a calibration file when one was given for that
// device, else the calibration a sweep carried (the one its predictions used).
struct CalibrationColumn {
  int device = 0;
  std::string source;
  Calibration calibration;
};

struct Timing {
  std::string schedule;
  int p = 1;
  double ms = 0;           // median
  double pct_of_copy = 0;  // of the copy bandwidth measured in the same run as this point
};

struct ShapeResult {
  std::string workload;
  long long m = 0, n = 0;
  std::optional<Timing> credit;              // fastest passed clustered P; none when no P passed
  std::map<std::string, Timing> baselines;   // key kCuda.key or a framework schedule; passed only
  bool measured_profitable = false;          // as summarize_sweep: best P faster than CUDA baseline
  std::map<std::string, std::optional<int>> predicted_p;  // per model variant
  double copy_gbps = 0;                      // of the run that measured the CUDA baseline
  // Against the faster one-CTA kernel, as sweep/selection.hpp judges a pick: the fastest passed
  // staged, global_reread or registers point; does the fastest cluster beat it; do the two
  // timing passes (when there were two) disagree on that.
  std::optional<Timing> one_cta;
  bool cluster_wins = false;
  bool tie = false;
  // Per model variant, the P its pick runs (1: a one-CTA kernel): paper and refined from the
  // recorded predictions, "time" where the report could evaluate the time model (build_report).
  std::map<std::string, int> picked_p;
};

// One device's CREDIT sweep(s) with the baselines joined to it.
struct Comparison {
  int device = 0;
  std::vector<int> framework_devices;   // where the framework points came from (this one or another
                                        // GPU of the same name when this one has none)
  std::vector<std::string> frameworks;  // framework schedules with at least one passed point
  std::vector<std::string> variants;    // model variants predicted
  std::vector<ShapeResult> shapes;      // by workload (first appearance), then M, then N
  SweepSummary summary;                 // summarize_sweep over the merged sweep files
};

struct Problem {  // a point whose disposition is not "passed"
  int device = 0;
  std::string source;
  SweepPoint point;
};

// Selection regret of every model variant on one sweep file (sweep/selection.hpp); the time
// model with an input calibration of the same GPU model that carries fitted constants and the
// probe (credit fit-model --json), else the sweep's own calibration and the built-in H200 ones.
struct SelectionSummary {
  std::string path;
  std::string constants;  // where the time model's constants came from
  std::map<std::string, VariantStats> stats;  // per variant: paper, refined, time
  int ties = 0, with_repeat = 0;
};

// Fig. 5: measured DRAM traffic at one shape (bench --traffic, a sweep's "traffic").
struct TrafficKernel {
  std::string schedule;
  int p = 1;
  double ms = 0;                // median time: what "fastest" means
  dram::PerElement bytes;    // bytes per element, measured and modelled
};
struct TrafficShape {
  int device = 0;
  std::string workload;
  long long m = 0, n = 0;
  double compulsory = 0;                  // B/element every schedule must move: the floor
  double b_reread = 0;                    // B/element the global-reread kernel reads again, by the model
  std::optional<TrafficKernel> baseline;  // the paper's CUDA baseline: staged where it passed, else global_reread
  std::optional<TrafficKernel> cluster;   // the fastest passed cluster P that was measured
  std::vector<TrafficKernel> kernels;     // every measured kernel of the shape
};

struct ReportData {
  std::vector<Input> inputs;
  std::vector<SelectionSummary> selections;
  std::vector<Device> devices;
  std::vector<CalibrationColumn> calibrations;
  std::vector<Comparison> comparisons;
  std::vector<Problem> problems;
  std::vector<TrafficShape> traffic;  // per device, shapes with measured DRAM traffic (Fig. 5)
  std::vector<std::string> notes;  // what was merged, replaced or left out, in words
};

struct NamedResults {
  std::string path;
  ResultsFile results;
};

// Files of one device are merged in the order given; a later file's point (same workload, M, N,
// schedule, P) or prediction (same shape and model) replaces an earlier one. Throws
// ResultsFileError for a kind the report cannot use (prediction files hold no measurement).
ReportData build_report(const std::vector<NamedResults>& files);
// read_results on every path (its ResultsFileError names the file and field), then build_report.
ReportData load_report(const std::vector<std::filesystem::path>& paths);

}  // namespace credit::report
