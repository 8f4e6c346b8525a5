#include "io/json_calibration.hpp"

#include <string>
#include <utility>
#include <vector>

#include "model/time_model_params.hpp"

namespace credit {

using nlohmann::json;

namespace io {
namespace {

// A constant of a term this model lacks (model/time_model_params.hpp) is read only to check that its term is off:
// there the model it was fitted with is this one.
void check_removed_constant(const Node& v, const RemovedTimeModelField& r) {
  if (r.with || r.schedule || v.num() == r.off) return;
  v.fail(v.value().dump() + ": this build has no such term (removed while off: it reads only " + r.name + " = " +
         json(r.off).dump() + ")");
}

// The time model's constants, every one checked: a constant this build does not know, or one out of range, is
// refused.
TimeModelParams read_time_model(const Node& t) {
  // A constant this build does not know would be dropped without a word, and the model then
  // predicts with another form than the one the file was fitted for: refuse it.
  if (!t.value().is_object()) t.expected("an object");
  for (const auto& [key, value] : t.value().items()) {
    if (key == "fitted_on" || find_time_model_field(key)) continue;
    const RemovedTimeModelField* removed = find_removed_time_model_field(key);
    if (!removed) t.fail("unknown constant '" + key + "': the file was written by another version of credit");
    check_removed_constant(t.field(removed->name), *removed);
  }
  TimeModelParams m;
  for (const auto& f : kTimeModelFields) {  // in table order: split_cta_gbps comes before the rates that default to it
    if (t.has(f.name) || f.absent == TimeModelField::Absent::required) m.*f.member = t.field(f.name).num();
    else m.*f.member = f.absent == TimeModelField::Absent::split_rate ? m.split_cta_gbps : f.value;
  }
  m.fitted_on = t.field("fitted_on").str();
  for (const auto& f : kTimeModelFields)
    if (!f.rate && !(m.*f.member >= 0)) t.fail("every constant must be a non-negative number");
  for (const auto& f : kTimeModelFields)
    if (f.rate && !(m.*f.member > 0)) t.fail("stream rates must be positive numbers");
  return m;
}

}  // namespace

Calibration read_calibration(const Node& n) {
  Calibration c;
  c.device = read_device(n.field("device"));
  // The models divide by the SM count (0 made every prediction NaN) and size by these; no GPU has 0.
  for (const char* k : {"sm_count", "smem_per_block_optin", "smem_per_sm", "l2_bytes"}) {
    const Node v = n.field("device").field(k);
    if (v.integer<long long>() < 1) v.fail("expected a positive integer, got " + v.value().dump());
  }
  c.sm_clock_hz = n.field("sm_clock_hz").num();
  c.clock_source = n.field("clock_source").str();
  c.local_load_latency = read_stat(n.field("local_load_latency"));
  c.remote_load_latency = read_stat(n.field("remote_load_latency"));
  c.local_read = read_p_map<Stat>(n.field("local_read"), read_stat);
  c.local_store = read_p_map<Stat>(n.field("local_store"), read_stat);
  c.remote_read = read_p_map<Stat>(n.field("remote_read"), read_stat);
  c.remote_store = read_p_map<Stat>(n.field("remote_store"), read_stat);
  c.barrier = read_p_map<Stat>(n.field("barrier"), read_stat);
  c.max_active_clusters = read_p_map<int>(
      n.field("max_active_clusters"), [](const Node& e) { return e.field("clusters").integer<int>(); });
  // The time model's inputs: optional, so calibrations written before it still read.
  if (n.has("limits")) {
    c.limits = read_flat(n.field("limits"), io::kLimitFields);
  }
  if (n.has("kernels")) {
    const Node ks = n.field("kernels");
    for (std::size_t i = 0, k = ks.size(); i < k; ++i) {
      const Node e = ks.item(i);
      const KernelResources r = read_flat(e, io::kKernelFields);
      if (r.threads < 1 || r.regs < 0 || r.static_smem < 0) e.fail("threads must be >= 1, regs and static_smem >= 0");
      c.kernels.push_back(r);
    }
  }
  const auto read_slots = [](const Node& e) {
    std::vector<int> v;
    const Node s = e.field("by_ctas_per_sm");
    for (std::size_t i = 0, k = s.size(); i < k; ++i) v.push_back(s.item(i).integer<int>());
    return v;
  };
  if (n.has("cluster_slots")) c.cluster_slots = read_p_map<std::vector<int>>(n.field("cluster_slots"), read_slots);
  if (n.has("cluster_slots_run"))
    c.cluster_slots_run = read_p_map<std::vector<int>>(n.field("cluster_slots_run"), read_slots);
  if (n.has("copies")) {
    const Node cs = n.field("copies");
    for (std::size_t i = 0, k = cs.size(); i < k; ++i) {
      const Node e = cs.item(i);
      CopySample s{e.field("bytes").num(), e.field("ms").num()};
      if (!(s.bytes > 0) || !(s.ms > 0)) e.fail("bytes and ms must be positive numbers");
      c.copies.push_back(s);
    }
  }
  for (auto [key, into] : {std::pair{"elem_ns", &c.elem_ns}, std::pair{"elem_ns_lone", &c.elem_ns_lone}}) {
    if (!n.has(key)) continue;
    const Node e = n.field(key);
    if (!e.value().is_object()) e.expected("an object {workload: ns per element per SM}");
    for (const auto& [k, v] : e.value().items()) {
      const Node x(v, e.path() + "." + k, file_of(e));
      const double ns = x.num();
      if (!(ns >= 0)) x.fail("expected a non-negative number");
      (*into)[k] = ns;
    }
  }
  // "stream_probes": the same table as written by 4730a298107f (partial kernels only).
  if (const char* key = n.has("kernel_probes") ? "kernel_probes" : n.has("stream_probes") ? "stream_probes" : nullptr) {
    const Node sp = n.field(key);
    if (!sp.value().is_object()) sp.expected("an object {workload: {schedule: {m, n, ms}}}");
    for (const auto& [w, by_schedule] : sp.value().items()) {
      const Node ws(by_schedule, sp.path() + "." + w, file_of(sp));
      if (!by_schedule.is_object()) ws.expected("an object {schedule: {m, n, ms}}");
      for (const auto& [s, v] : by_schedule.items()) {
        const Node e(v, ws.path() + "." + s, file_of(ws));
        KernelProbe pr{e.field("m").integer<long long>(), e.field("n").integer<long long>(), e.field("ms").num(),
                       e.has("p") ? e.field("p").integer<int>() : 0};
        if (pr.m < 1 || pr.n < 1 || !(pr.ms > 0) || pr.p < 0)
          e.fail("m and n must be positive integers, ms a positive number and p, where present, not negative");
        c.kernel_probes[w][s] = pr;
      }
    }
  }
  if (n.has("time_model")) c.time_model = read_time_model(n.field("time_model"));
  return c;
}

}  // namespace io

namespace {

using io::number;
using io::stat_map;
using io::write_flat;

// The time model's constants by the table's names, and the sweep files they were fitted on.
json time_model_json(const TimeModelParams& m) {
  json t = json::object();
  for (const auto& f : kTimeModelFields) t[f.name] = number(m.*f.member);
  t["fitted_on"] = m.fitted_on;
  return t;
}

}  // namespace

void to_json(json& j, const Calibration& c) {
  json clusters = json::array();
  for (const auto& [p, n] : c.max_active_clusters) clusters.push_back({{"p", p}, {"clusters", n}});
  j = json{{"device", c.device},
           {"sm_clock_hz", number(c.sm_clock_hz)},
           {"clock_source", c.clock_source},
           {"local_load_latency", c.local_load_latency},
           {"remote_load_latency", c.remote_load_latency},
           {"local_read", stat_map(c.local_read)},
           {"local_store", stat_map(c.local_store)},
           {"remote_read", stat_map(c.remote_read)},
           {"remote_store", stat_map(c.remote_store)},
           {"barrier", stat_map(c.barrier)},
           {"max_active_clusters", std::move(clusters)}};
  j["limits"] = write_flat(c.limits, io::kLimitFields);
  json kernels = json::array();
  for (const auto& k : c.kernels)
    kernels.push_back(write_flat(k, io::kKernelFields));
  j["kernels"] = std::move(kernels);
  const auto write_slots = [](const std::map<int, std::vector<int>>& m) {
    json slots = json::array();
    for (const auto& [p, v] : m) slots.push_back({{"p", p}, {"by_ctas_per_sm", v}});
    return slots;
  };
  j["cluster_slots"] = write_slots(c.cluster_slots);
  if (!c.cluster_slots_run.empty()) j["cluster_slots_run"] = write_slots(c.cluster_slots_run);
  json copies = json::array();
  for (const auto& s : c.copies) copies.push_back({{"bytes", number(s.bytes)}, {"ms", number(s.ms)}});
  j["copies"] = std::move(copies);
  json elem = json::object();
  for (const auto& [w, ns] : c.elem_ns) elem[w] = number(ns);
  j["elem_ns"] = std::move(elem);
  if (!c.elem_ns_lone.empty()) {
    json lone = json::object();
    for (const auto& [w, ns] : c.elem_ns_lone) lone[w] = number(ns);
    j["elem_ns_lone"] = std::move(lone);
  }
  json probes = json::object();
  for (const auto& [w, by_schedule] : c.kernel_probes)
    for (const auto& [s, pr] : by_schedule) {
      probes[w][s] = {{"m", pr.m}, {"n", pr.n}, {"ms", number(pr.ms)}};
      if (pr.p > 0) probes[w][s]["p"] = pr.p;
    }
  j["kernel_probes"] = std::move(probes);
  j["time_model"] = c.time_model ? time_model_json(*c.time_model) : json(nullptr);
}

}  // namespace credit
