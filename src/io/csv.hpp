#pragma once
// CSV forms of the results (--csv): a header line, then one row per point or per candidate.
// Fields are RFC 4180: a field holding a comma, a quote or a line break is quoted, quotes
// doubled; numbers are printed in full precision; a NaN (no value) is an empty field.
#include <string>
#include <vector>

#include "core/prediction.hpp"
#include "core/sweep_point.hpp"

namespace credit {

// workload,m,n,schedule,p,disposition,time_ms_median,time_ms_min,time_ms_max,runs,gbps,
// pct_of_copy,compulsory_bytes,traffic_bytes,max_rel_l2_error,submission,variant,
// dram_read_bytes,dram_write_bytes,dram_over_model (empty where the traffic was not measured),reason
std::string points_csv(const std::vector<SweepPoint>& points);

// One row per candidate of the time model's predictions:
// workload,m,n,schedule,p,legal,t_ms,pick,ctas_per_sm,resident_rows,waves,hbm_bytes,reason;
// and for the paper's model, one row per P:
// workload,m,n,model,baseline,t_b_ms,p,legal,dt_ms,profitable,best,reason.
std::string candidates_csv(const std::vector<Prediction>& predictions);
std::string prediction_rows_csv(const std::vector<Prediction>& predictions);

// One field, quoted when it must be.
std::string csv_field(const std::string& s);

}  // namespace credit
