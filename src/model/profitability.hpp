#pragma once
// The CREDIT profitability model (paper Eq. 3-9, as DESIGN.md section 3 reconstructs it):
// does a clustered (DSMEM) schedule beat the selected one-CTA CUDA baseline at (M, N), and
// at which cluster size P. Pure host code; every time is in milliseconds.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/prediction.hpp"
#include "core/static_figures.hpp"

namespace credit::model {

// Paper: Eq. 3-9 exactly as written. Refined: improvements reported beside the paper's model,
// each justified by H200 data (docs/model.md): the wave count W from the measured max
// active clusters (see waves()), and T_save at staged-baseline shapes (see evaluate()).
enum class Variant { Paper, Refined };

const char* variant_name(Variant v);  // "paper", "refined"
// Throws std::invalid_argument naming the valid values.
Variant parse_variant(std::string_view name);

// Device figures the model needs, in the paper's units.
struct DeviceFigures {
  int sm_count = 0;                         // S
  long smem_max = 0;                        // S_max: opt-in dynamic smem per block, bytes
  double f_hz = 0;                          // f: SM clock
  double b_smem_read = 0, b_smem_write = 0;  // B_SMEM^r, B_SMEM^w: bytes/cycle/SM
  std::map<int, double> b_dsm_write;        // B_DSM^w(P): bytes/cycle/SM
  std::map<int, int> max_active_clusters;   // per P, measured; may be empty
};

// Medians of the calibration: local read/store from P = 2 (else the smallest P present),
// remote store per P. Throws std::invalid_argument naming a missing or non-positive field.
DeviceFigures device_figures_from(const credit::Calibration& cal);

// Measured inputs of one shape: T_B of the selected baseline and T_ctrl per P.
struct ShapeTimings {
  double t_b_ms = 0;
  std::map<int, double> t_ctrl_ms;
  double copy_gbps = 0;  // copy bandwidth of the same run (read + write); 0: not measured
  double t_copy_ms = 0;  // a copy moving the shape's compulsory bytes (same run); 0: not measured
};

// Eq. 3. Footprint of a CTA retaining ceil(n/p) elements: ceil(n/p)*b_keep + S_scratch.
long long cluster_smem_bytes(const StaticFigures& f, long long n, int p);
bool cluster_legal(const StaticFigures& f, long long n, int p, long smem_max);

// The paper's CUDA baseline: staged when the whole row fits one CTA (Eq. 3 at p = 1).
enum class Baseline { Staged, GlobalReread };
const char* baseline_name(Baseline b);  // "staged", "global_reread"
Baseline baseline_path(const StaticFigures& f, long long n, long smem_max);
// b_reread of the path: the staged kernel re-reads nothing from HBM.
int reread_bytes(const StaticFigures& f, Baseline b);

// Eq. 4-5, per row: D_base = D_fixed + N*b_reread, D_cluster = D_fixed, b_B = D_base/N.
struct Traffic {
  double d_base = 0, d_cluster = 0;
  double ceiling = 0;  // D_base / D_cluster
  double b_b = 0;      // bytes per element the baseline moves
};
Traffic traffic(const StaticFigures& f, long long n, Baseline b);

// Eq. 6: remote write bytes per row, P(P-1)*Q*s (remote reads are 0, K = f.K() = 2L).
double dsm_write_bytes(const StaticFigures& f, int p);

// Eq. 8 wave count. Paper: ceil(M / floor(S/P)). Refined: ceil(M / max_active_clusters[P])
// when that figure is present and positive, else the paper's. Throws when P > S.
long long waves(Variant v, const DeviceFigures& d, long long m, int p);

// Bytes per element of the input stream the SMEM deposit overlaps (T_input of Eq. 8): the
// retained inputs, b_keep. They are exactly what the deposit writes, loaded as it writes
// them; inputs only h reads stream at apply time and outputs are writes, so neither hides it.
double input_bytes_per_elem(const StaticFigures& f);

// Eq. 7-9 at one (M, N, P).
struct Terms {
  long long waves = 0;
  double t_save = 0, t_ctrl = 0, t_replay = 0, t_dsm = 0;
  double t_smem_w = 0, t_input = 0, t_deposit = 0;
  double dt = 0;  // t_save - t_ctrl - t_replay - t_dsm - t_deposit
};
// Throws std::invalid_argument when B_DSM^w(P) is missing or the arguments are out of range.
// Refined, staged baseline: T_save is the time the baseline spends above its bandwidth floor
// (what smaller slices and better occupancy can recover) instead of the paper's zero (a staged
// baseline re-reads nothing). The floor is t_copy_ms, a copy of the same traffic, when measured
// (launch and tail included), else M D_fixed / copy_gbps; with neither, the paper's zero.
Terms evaluate(const StaticFigures& f, Variant v, const DeviceFigures& d, long long m,
               long long n, int p, double t_b_ms, double t_ctrl_ms, double copy_gbps = 0,
               double t_copy_ms = 0);

// Workloads the model rejects by construction (DESIGN.md section 3): the reason, or nothing.
std::optional<std::string> structural_rejection(const StaticFigures& f);

// One row per P in ps, in order. A P is illegal when Eq. 3 fails or P > S; a legal P without
// T_ctrl or B_DSM^w is not evaluated (the reason says so). A structural rejection marks
// every P not profitable. best_p = argmax dT over evaluated P with dT > 0 (ties: first).
credit::Prediction predict(const StaticFigures& f, std::string workload, Variant v,
                           const DeviceFigures& d, long long m, long long n,
                           const ShapeTimings& t, const std::vector<int>& ps);

// N*: the smallest tested width whose prediction is profitable.
// The P the paper's model picks among `rows`: the largest dT among the profitable rows (ties: the first);
// empty when none is profitable. (predict's best_p; predict --from --P re-picks among the rows it keeps.)
std::optional<int> best_profitable_p(const std::vector<credit::PredictionRow>& rows);

std::optional<long long> n_star(const std::vector<credit::Prediction>& preds_sorted_by_n);

}  // namespace credit::model
