// The H200's constants, built in: the time model's constants for every calibration that carries none.
#include "model/time_model.hpp"

namespace credit::model {

TimeModelParams h200_params() {
  // The H200's constants. cta_us ... fixed_exposed_share: fitted by `credit fit-model` on data/model-fit/h200/
  // (2026-12-01). The terms after them, each set one by one for the reason beside it (docs/model.md).
  TimeModelParams p;
  p.cta_us = 0.3918;
  p.staging_us = 0.9223;
  p.stage_us = 0.09976;
  p.cluster_us = 1.191;
  p.barrier_scale = 1.306;
  p.split_cta_gbps = 41.64;
  p.reread_cta_gbps = 77.09;
  p.register_cta_gbps = 100000.0;
  p.partial_cta_gbps = 10.68;
  p.l2_share = 0.4347;
  p.l2_gbps = 21980.0;
  p.col_gbps = 75.12;
  p.sm_work_scale = 1.087;
  p.serial_share = 1.376e-09;
  p.serial_power = 1.543;
  p.col_exposed_share = 3.783;
  p.col_exposed_power = 1.347;
  p.fixed_exposed_share = 1.0;
  // Chosen on a held-out H200 sweep over the fit's 0.1954 (2026-12-05): regret 1.25 -> 1.18%, worst pick 17.2% and
  // right verdicts outside the noise band (233 of 257) unchanged.
  p.work_exposed_share = 0.3;
  // Chosen by a grid over the fit's 0.07598 on nine held-out sweeps (mean regret geomean 1.283 -> 1.140%) and kept
  // on another (1.64 -> 1.51%), 2026-12-04.
  p.cluster_gain = 0.115;
  // Fitted alone on the development data of the kernels that keep column parameters in the L2 (2026-12-02).
  p.partial_col_stream = 0.4662;
  // The kernel probes' factors taken whole: set, not fitted (2026-12-02).
  p.partial_probe_power = 1.0;
  p.register_probe_power = 1.0;
  // A staged kernel's staging in later waves exposed 1/k': the term's structural form, not fitted (2026-12-02).
  p.staging_exposed_share = 0.0;
  // Set, not fitted; kept on a held-out sweep (2026-12-03: regret 1.44 -> 1.24%).
  p.cluster_probe_power = 1.0;
  // Chosen on five held-out sweeps and kept on four others (2026-12-03: pooled regret 1.50 -> 1.27%).
  p.first_wave_serial_share = 0.25;
  // Chosen on ten held-out sweeps (1.174 -> 1.097%) and kept on another (1.38 -> 1.35%), 2026-12-04.
  p.tail_wave_share = 0.6;
  // split_global's exchange: fitted on a wide-row bench of it alone (model/time_model_params.hpp).
  p.global_exchange_us = kGlobalExchangeUs;
  p.global_exchange_split_us = kGlobalExchangeSplitUs;
  // Chosen on fourteen held-out sweeps and kept on another, measured on an H100 (2026-12-05): regret 0.84 -> 0.75%,
  // worst pick 22.2 -> 7.5%, right verdicts equal.
  p.register_probe_wave_power = 0.5;
  p.fitted_on = "the H200's, fitted by credit fit-model on data/model-fit/h200/ (2026-12-01), later terms set one by one: "
                "docs/model.md";
  return p;
}

}  // namespace credit::model
