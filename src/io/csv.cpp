#include "io/csv.hpp"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>

#include "io/json_records.hpp"
#include "io/json_sweep_point.hpp"
#include "core/dram_traffic.hpp"

namespace credit {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + '"';
}

namespace {

std::string num(double d) { return std::isfinite(d) ? fmt::format("{}", d) : ""; }

std::string row(std::initializer_list<std::string> fields) {
  std::string line;
  for (const auto& f : fields) line += (line.empty() ? "" : ",") + f;
  return line + "\n";
}

}  // namespace

std::string points_csv(const std::vector<SweepPoint>& points) {
  std::string out =
      "workload,m,n,schedule,p,disposition,time_ms_median,time_ms_min,time_ms_max,runs,gbps,pct_of_copy,"
      "compulsory_bytes,traffic_bytes,max_rel_l2_error,submission,variant,dram_read_bytes,dram_write_bytes,"
      "dram_over_model,reason\n";
  for (const auto& p : points)
    out += row({csv_field(p.workload), std::to_string(p.m), std::to_string(p.n), csv_field(p.schedule),
                std::to_string(p.p), disposition_name(p.disposition), num(p.time_ms.median), num(p.time_ms.min),
                num(p.time_ms.max), std::to_string(p.time_ms.runs), num(p.gbps), num(p.pct_of_copy),
                num(p.compulsory_bytes), num(p.traffic_bytes), num(p.max_rel_l2_error), csv_field(p.submission),
                csv_field(p.variant), p.dram ? num(p.dram->read_bytes) : "", p.dram ? num(p.dram->write_bytes) : "",
                p.dram ? (dram::over_model(p, *p.dram) ? "true" : "false") : "", csv_field(p.reason)});
  return out;
}

std::string candidates_csv(const std::vector<Prediction>& predictions) {
  std::string out = "workload,m,n,schedule,p,legal,t_ms,pick,ctas_per_sm,resident_rows,waves,hbm_bytes,reason\n";
  for (const auto& pr : predictions)
    for (const auto& c : pr.candidates)
      out += row({csv_field(pr.workload), std::to_string(pr.m), std::to_string(pr.n), csv_field(c.schedule),
                  std::to_string(c.p), c.legal ? "true" : "false", c.legal ? num(c.t_ms) : "",
                  c.schedule == pr.pick_schedule && c.p == pr.pick_p ? "true" : "false", std::to_string(c.ctas_per_sm),
                  std::to_string(c.resident_rows), num(c.waves), num(c.hbm_bytes), csv_field(c.reason)});
  return out;
}

std::string prediction_rows_csv(const std::vector<Prediction>& predictions) {
  std::string out = "workload,m,n,model,baseline,t_b_ms,p,legal,dt_ms,profitable,best,reason\n";
  for (const auto& pr : predictions)
    for (const auto& r : pr.rows)
      out += row({csv_field(pr.workload), std::to_string(pr.m), std::to_string(pr.n), csv_field(pr.model),
                  csv_field(pr.baseline), num(pr.t_b_ms), std::to_string(r.p), r.legal ? "true" : "false",
                  num(r.dt_ms), r.profitable ? "true" : "false", pr.best_p && *pr.best_p == r.p ? "true" : "false",
                  csv_field(r.reason)});
  return out;
}

}  // namespace credit
