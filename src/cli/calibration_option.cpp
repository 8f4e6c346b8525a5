#include "cli/calibration_option.hpp"

#include <spdlog/spdlog.h>

#include "cli/commands.hpp"
#include "io/json_records.hpp"
#include "io/meta.hpp"
#include "model/time_model.hpp"

namespace credit::cli {

ResultsFile read_calibration_option(const std::string& path) {
  ResultsFile in = read_results(path);
  // What was given instead of a calibration, in its own words: a sweep records the calibration of the call that
  // measured it, often one without the time model's inputs (a sweep of an older build, or the paper's sweep).
  const std::string what = describe_results_kind(in);  // "a sweep results file", "a torch-baselines file", ...
  if (!in.calibration)
    throw CommandFailed("--calibration " + path + ": calibration: missing: this is " + what +
                            " without one, expected a calibration (credit calibrate --json, or fit-model --json)",
                        kExitBadInput);
  if (!model::has_time_model_inputs(*in.calibration))
    throw CommandFailed(
        "--calibration " + path + ": " +
            (in.kind == "calibration"
                 ? std::string("the calibration has no time model inputs (kernel resources, cluster slots, copies): it "
                               "predates them; run `credit calibrate` with this build")
                 : "this is " + what + ", expected a calibration: the calibration it records has no time model inputs "
                                       "(kernel resources, cluster slots, copies); give one written by credit calibrate "
                                       "--json or fit-model --json"),
        kExitBadInput);
  if (in.meta.build_defines_recorded && in.meta.build_defines != this_build_defines())
    spdlog::warn("{} was written by a build compiled with {}, this one with {}: its kernels' resources and cluster "
                 "placement describe that build's kernels", path, build_defines_label(in.meta.build_defines),
                 build_defines_label(this_build_defines()));
  return in;
}

}  // namespace credit::cli
