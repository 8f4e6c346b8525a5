#include "io/json_sweep_point.hpp"

#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>

#include "core/dram_traffic.hpp"

namespace credit {

using nlohmann::json;

namespace {

constexpr const char* kDispositionNames[] = {"passed", "incorrect", "failed", "skipped",
                                             "not_supported"};
constexpr Disposition kDispositions[] = {Disposition::Passed, Disposition::Incorrect,
                                         Disposition::Failed, Disposition::Skipped,
                                         Disposition::NotSupported};

}  // namespace

namespace io {
namespace {

// Measured bytes only: the per-element figures and the flag written beside them are derived.
DramTraffic read_dram(const Node& n) {
  DramTraffic d;
  d.read_bytes = n.field("read_bytes").num();
  d.write_bytes = n.field("write_bytes").num();
  d.kernels = n.field("kernels").integer<int>();
  for (const char* k : {"read_bytes", "write_bytes"})
    if (const double v = n.field(k).num(); !(std::isfinite(v) && v >= 0))
      n.field(k).fail("expected a non-negative byte count, got " + (std::isnan(v) ? std::string("null") : fmt_double(v)));
  if (d.kernels < 1) n.field("kernels").fail("expected at least one kernel");
  return d;
}

}  // namespace

SweepPoint read_point(const Node& n) {
  SweepPoint p;
  p.workload = read_workload(n.field("workload"));
  p.m = read_extent(n.field("m"));
  p.n = read_extent(n.field("n"));
  read_fields(n, io::kPointFields, p);
  const Node d = n.field("disposition");
  try {
    p.disposition = parse_disposition(d.str());
  } catch (const std::invalid_argument& e) {
    d.fail(e.what());
  }
  p.time_ms = read_stat(n.field("time_ms"));
  // A passed point's time is a measurement: positive and finite. A control point's is the
  // difference of two medians (T_ctrl), which may be zero or slightly negative, but finite.
  if (p.disposition == Disposition::Passed) {
    const double t = p.time_ms.median;
    const bool ok = p.schedule == kControlSchedule ? std::isfinite(t) : std::isfinite(t) && t > 0;
    if (!ok)
      n.field("time_ms").field("median").fail(
          std::string("a passed point needs a ") + (p.schedule == kControlSchedule ? "finite" : "positive, finite") +
          " time, got " + (std::isnan(t) ? std::string("null (NaN)") : fmt_double(t)));
  }
  read_fields(n, io::kPointOptionalFields, p, true);
  if (n.has("gpu_time_ms")) p.gpu_time_ms = read_stat(n.field("gpu_time_ms"));
  if (n.has("dram")) p.dram = read_dram(n.field("dram"));
  return p;
}

}  // namespace io

const char* disposition_name(Disposition d) {
  for (std::size_t i = 0; i < std::size(kDispositions); ++i)
    if (kDispositions[i] == d) return kDispositionNames[i];
  return "unknown";  // only for a value cast from an out-of-range integer
}

Disposition parse_disposition(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kDispositions); ++i)
    if (name == kDispositionNames[i]) return kDispositions[i];
  throw std::invalid_argument("expected one of passed, incorrect, failed, skipped, not_supported, "
                              "got \"" + std::string(name) + "\"");
}

void to_json(json& j, Disposition d) { j = disposition_name(d); }

using io::number;
using io::write_flat;

void to_json(json& j, const SweepPoint& p) {
  j = write_flat(p, io::kPointFields);
  j.update(write_flat(p, io::kPointOptionalFields));
  j["workload"] = p.workload;
  j["m"] = p.m;
  j["n"] = p.n;
  j["disposition"] = p.disposition;
  j["time_ms"] = p.time_ms;
  j["gpu_time_ms"] = p.gpu_time_ms;
  if (!p.dram) {
    j["dram"] = nullptr;
    return;
  }
  const dram::PerElement e = dram::per_element(p);
  j["dram"] = json{{"read_bytes", number(p.dram->read_bytes)},
                   {"write_bytes", number(p.dram->write_bytes)},
                   {"kernels", p.dram->kernels},
                   {"bytes_per_element", number(e.total)},
                   {"model_bytes_per_element", number(e.model)},
                   {"compulsory_bytes_per_element", number(e.compulsory)},
                   {"reread_bytes_per_element", number(e.reread)},
                   {"over_model", e.over_model}};
}

}  // namespace credit
