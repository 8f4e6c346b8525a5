// The CLI's offline helpers: whether a problem fits the device (gpu/launch/device_fit.hpp) and the
// CSV forms of the results (io/csv.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "catch.hpp"
#include "cli/calibration_table.hpp"
#include "gpu/launch/device_fit.hpp"
#include "core/workload_registry.hpp"
#include "io/csv.hpp"

using namespace credit;

TEST_CASE("problem_bytes counts every plane, column and row buffer", "[cli]") {
  const WorkloadInfo& w = find_workload("layernorm");
  double per_elem = 4.0 * double(w.inputs.size());
  for (const auto& o : w.outputs) per_elem += out_bytes(o.type);
  const double expect = 4096.0 * 65536.0 * per_elem + 4.0 * 65536.0 * double(w.col_params.size()) +
                        4.0 * 4096.0 * double(w.row_params.size() + w.row_outputs.size());
  CHECK(problem_bytes(w, 4096, 65536) == expect);
  CHECK(problem_bytes(w, 4096, 65536) >= 4096.0 * 65536.0 * 8);  // an input and an output at least
}

TEST_CASE("a problem larger than the device is refused before allocating", "[cli]") {
  const WorkloadInfo& w = find_workload("layernorm");
  DeviceInfo h200;
  h200.global_mem_bytes = 150'000'000'000LL;
  CHECK(device_memory_problem(w, 4096, 65536, h200).empty());
  const std::string why = device_memory_problem(w, 2'000'000, 1 << 20, h200);
  INFO(why);
  CHECK(why.find("layernorm 2000000x1048576: its operands take") != std::string::npos);
  CHECK(why.find("more than 90% of the device's 150.0 GB") != std::string::npos);
  DeviceInfo none;  // no memory: nothing fits
  CHECK(!device_memory_problem(w, 1, 1, none).empty());
}

TEST_CASE("points_csv: a header, one row per point, fields quoted when they must be", "[csv]") {
  SweepPoint p;
  p.workload = "layernorm";
  p.m = 4096;
  p.n = 65536;
  p.schedule = "cluster";
  p.p = 8;
  p.disposition = Disposition::Passed;
  p.time_ms = {0.25, 0.2, 0.5, 20};
  p.gbps = 4000;
  SweepPoint q = p;
  q.disposition = Disposition::NotSupported;
  q.reason = "Eq. 3: smem, \"too much\"";
  q.time_ms.median = std::nan("");
  const std::string csv = points_csv({p, q});
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(header.rfind("workload,m,n,schedule,p,disposition,time_ms_median,", 0) == 0);
  CHECK(csv.find("\nlayernorm,4096,65536,cluster,8,passed,0.25,0.2,0.5,20,4000,") != std::string::npos);
  CHECK(csv.find(",not_supported,,0.2,") != std::string::npos);  // NaN: an empty field
  CHECK(csv.find(",\"Eq. 3: smem, \"\"too much\"\"\"\n") != std::string::npos);
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 3);
}

TEST_CASE("candidates_csv: one row per candidate, the pick marked", "[csv]") {
  Prediction pr;
  pr.workload = "wvar_bwd";
  pr.m = 4096;
  pr.n = 131072;
  CandidateTime a;
  a.schedule = "staged";
  a.legal = false;
  a.reason = "smem";
  CandidateTime b;
  b.schedule = "cluster";
  b.p = 16;
  b.legal = true;
  b.t_ms = 1.5;
  pr.candidates = {a, b};
  pr.pick_schedule = "cluster";
  pr.pick_p = 16;
  const std::string csv = candidates_csv({pr});
  CHECK(csv.rfind("workload,m,n,schedule,p,legal,t_ms,pick,", 0) == 0);
  CHECK(csv.find("\nwvar_bwd,4096,131072,staged,1,false,,false,") != std::string::npos);
  CHECK(csv.find("\nwvar_bwd,4096,131072,cluster,16,true,1.5,true,") != std::string::npos);
}

TEST_CASE("calibrate prints the kernel probes it measured, and nothing without them", "[cli]") {
  Calibration c;
  CHECK(cli::format_kernel_probes(c).empty());
  c.kernel_probes["wvar_bwd"]["partial_one"] = {64, 1 << 20, 0.5871};
  c.kernel_probes["wvar_bwd"]["registers"] = {2048, 8192, 0.0757};
  const std::string t = cli::format_kernel_probes(c);
  INFO(t);
  CHECK(t.find("wvar_bwd") != std::string::npos);
  CHECK(t.find("partial_one 64x1048576 0.5871") != std::string::npos);
  CHECK(t.find("registers 2048x8192 0.0757") != std::string::npos);
  // Register variants are keyed by kernel; past four kernels a workload's line wraps.
  for (const char* k : {"registers/128x2", "registers/256x2", "registers/256x4", "registers/512x8"})
    c.kernel_probes["wvar_bwd"][k] = {2048, 1024, 0.0101};
  const std::string w = cli::format_kernel_probes(c);
  INFO(w);
  CHECK(w.find("registers/512x8 2048x1024 0.0101") != std::string::npos);
  CHECK(std::count(w.begin(), w.end(), '\n') == 4);  // the heading's two and two lines for six kernels
  // The partial kernel first, then the register kernels by their probe's width.
  c.kernel_probes["wvar_bwd"]["registers/128x2"].n = 4096;
  const std::string o = cli::format_kernel_probes(c);
  INFO(o);
  CHECK(o.find("partial_one") < o.find("registers/256x2"));
  CHECK(o.find("registers/256x4") < o.find("registers/128x2"));  // 1024 columns before 4096
  CHECK(o.find("registers 2048x8192") > o.find("registers/128x2"));
  // The SM-work probes first, all SMs busy and, where measured, 16 alone.
  c.elem_ns["lars"] = 0.35;
  c.elem_ns["rmsnorm"] = 0.18;
  c.elem_ns_lone["lars"] = 0.231;
  const std::string e = cli::format_kernel_probes(c);
  INFO(e);
  CHECK(e.find("SM-work probe") < e.find("kernel probes"));
  CHECK(e.find("lars            0.3500  0.2310\n") != std::string::npos);
  CHECK(e.find("rmsnorm         0.1800\n") != std::string::npos);
}
