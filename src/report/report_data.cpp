#include "report/report_data.hpp"

#include "model/time_model.hpp"
#include "sweep/model_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "io/json_records.hpp"
#include "report/report_traffic.hpp"

namespace credit::report {

namespace {

using PointKey = std::tuple<std::string, long long, long long, std::string, int>;
using PredictionKey = std::tuple<std::string, long long, long long, std::string>;
using ShapeKey = std::tuple<std::string, long long, long long>;

bool is_framework(const std::string& schedule) {
  return std::any_of(kFrameworks.begin(), kFrameworks.end(), [&](const BaselineName& b) { return b.key == schedule; });
}

bool is_cuda_kernel(const std::string& schedule) { return model::is_candidate_schedule(schedule); }

// "GPU-bdd032b1-a42d-..." -> "GPU-bdd032b1": enough to tell the GPUs of one report apart.
std::string short_uuid(const std::string& uuid) { return uuid.substr(0, uuid.find('-', 4)); }

// Everything measured on one device, merged in input order: a later file's record replaces an
// earlier one with the same key, so re-measuring a shape supersedes the old run.
struct Pool {
  ResultsFile merged;
  std::vector<std::string> source;  // per merged point: the file it came from
  std::vector<double> copy_gbps;    // per merged point: the copy bandwidth of its run
  std::vector<std::string> prediction_source;
  std::map<PointKey, std::size_t> points;
  std::map<PredictionKey, std::size_t> predictions;
  std::map<std::pair<std::string, std::string>, int> replaced;  // (earlier file, later file) -> records

  void add(const ResultsFile& r, const std::string& path) {
    for (const auto& pt : r.points) {
      const PointKey k{pt.workload, pt.m, pt.n, pt.schedule, pt.p};
      if (const auto it = points.find(k); it != points.end()) {
        ++replaced[{source[it->second], path}];
        merged.points[it->second] = pt;
        source[it->second] = path;
        copy_gbps[it->second] = r.copy_gbps;
        continue;
      }
      points.emplace(k, merged.points.size());
      merged.points.push_back(pt);
      source.push_back(path);
      copy_gbps.push_back(r.copy_gbps);
    }
    for (const auto& pr : r.predictions) {
      const PredictionKey k{pr.workload, pr.m, pr.n, pr.model};
      if (const auto it = predictions.find(k); it != predictions.end()) {
        ++replaced[{prediction_source[it->second], path}];
        merged.predictions[it->second] = pr;
        prediction_source[it->second] = path;
        continue;
      }
      predictions.emplace(k, merged.predictions.size());
      merged.predictions.push_back(pr);
      prediction_source.push_back(path);
    }
  }

  // The passed point with this key, or null.
  const SweepPoint* passed(const std::string& w, long long m, long long n, const std::string& s, int p,
                           std::size_t* index = nullptr) const {
    const auto it = points.find(PointKey{w, m, n, s, p});
    if (it == points.end() || merged.points[it->second].disposition != Disposition::Passed) return nullptr;
    if (index) *index = it->second;
    return &merged.points[it->second];
  }

  bool has_passed_framework() const {
    return std::any_of(merged.points.begin(), merged.points.end(), [](const SweepPoint& p) {
      return is_framework(p.schedule) && p.disposition == Disposition::Passed;
    });
  }
};

class Builder {
 public:
  explicit Builder(const std::vector<NamedResults>& files) {
    for (const auto& f : files) add_file(f);
    for (std::size_t d = 0; d < pools_.size(); ++d) {
      for (const auto& [files, n] : pools_[d].replaced)
        data_.notes.push_back(fmt::format("{}: {} holds {} points or predictions that {} also has; the later file's "
                                          "are used.",
                                          data_.devices[d].tag, files.second, n, files.first));
      collect_problems(int(d));
      for (auto& t : traffic_shapes(pools_[d].merged.points, int(d))) data_.traffic.push_back(std::move(t));
      compare(int(d));
    }
    note_unused_frameworks();
  }

  ReportData take() { return std::move(data_); }

 private:
  int device_of(const DeviceInfo& info) {
    for (std::size_t i = 0; i < data_.devices.size(); ++i)
      if (data_.devices[i].info.name == info.name && data_.devices[i].info.uuid == info.uuid) return int(i);
    const std::string tag = fmt::format("D{}", data_.devices.size() + 1);
    const std::string label = info.uuid.empty() ? info.name : info.name + " [" + short_uuid(info.uuid) + "]";
    data_.devices.push_back({info, tag, label});
    pools_.emplace_back();
    return int(data_.devices.size() - 1);
  }

  void add_file(const NamedResults& f) {
    const ResultsFile& r = f.results;
    if (r.kind != "sweep" && r.kind != "calibration")
      throw ResultsFileError(f.path, "kind", "expected a sweep or calibration file, got \"" + r.kind + "\" (" +
                                                 (r.kind == "ladder" ? "a ladder is summarized by credit run-sweep --summarize"
                                                                     : "a prediction file holds no measurement: give its sweep") +
                                                 ")");
    const int dev = device_of(r.device);
    data_.inputs.push_back({f.path, r.kind, r.meta.utc_time, r.meta.git_sha, dev, r.copy_gbps, r.points.size(),
                            r.predictions.size(), r.calibration.has_value()});
    if (r.calibration) add_calibration(dev, f.path, *r.calibration, r.kind == "calibration");
    pools_[std::size_t(dev)].add(r, f.path);
  }

  // A calibration file for the device outranks the copy a sweep carried; otherwise the later wins.
  void add_calibration(int dev, const std::string& path, const Calibration& c, bool from_calibration_file) {
    const std::string name = std::filesystem::path(path).filename().string();
    for (std::size_t i = 0; i < data_.calibrations.size(); ++i)
      if (data_.calibrations[i].device == dev) {
        if (from_calibration_file || !calibration_from_file_[i]) {
          data_.calibrations[i] = {dev, name, c};
          calibration_from_file_[i] = from_calibration_file;
        }
        return;
      }
    data_.calibrations.push_back({dev, name, c});
    calibration_from_file_.push_back(from_calibration_file);
  }

  void collect_problems(int dev) {
    const Pool& pool = pools_[std::size_t(dev)];
    for (std::size_t i = 0; i < pool.merged.points.size(); ++i)
      if (pool.merged.points[i].disposition != Disposition::Passed)
        data_.problems.push_back({dev, pool.source[i], pool.merged.points[i]});
  }

  // Framework points: this device's own, else those of every other GPU of the same name.
  std::vector<int> framework_devices(int dev) const {
    if (pools_[std::size_t(dev)].has_passed_framework()) return {dev};
    std::vector<int> out;
    for (std::size_t d = 0; d < pools_.size(); ++d)
      if (int(d) != dev && data_.devices[d].info.name == data_.devices[std::size_t(dev)].info.name &&
          pools_[d].has_passed_framework())
        out.push_back(int(d));
    return out;
  }

  static Timing timing(const SweepPoint& p) { return {p.schedule, p.p, p.time_ms.median, p.pct_of_copy}; }

  void compare(int dev) {
    const Pool& pool = pools_[std::size_t(dev)];
    Comparison c;
    c.device = dev;
    c.summary = summarize_sweep(pool.merged);
    note_unpredicted(dev, c.summary);
    if (c.summary.shapes.empty()) return;
    c.framework_devices = framework_devices(dev);
    std::map<std::string, MeasuredShape> measured;
    for (auto& m : measured_shapes(pool.merged)) measured.emplace(shape_key(m.workload, m.m, m.n), std::move(m));
    std::set<std::string> frameworks, variants;
    for (const ShapeVerdict& v : c.summary.shapes) {
      ShapeResult s;
      s.workload = v.workload;
      s.m = v.m;
      s.n = v.n;
      std::size_t bi = 0;
      if (const SweepPoint* b = pool.passed(v.workload, v.m, v.n, v.baseline, 1, &bi)) {
        s.baselines[std::string(kCuda.key)] = timing(*b);
        s.copy_gbps = pool.copy_gbps[bi];
      }
      if (v.best_p)
        if (const SweepPoint* b = pool.passed(v.workload, v.m, v.n, "cluster", *v.best_p)) s.credit = timing(*b);
      s.measured_profitable = v.measured_profitable;
      s.predicted_p = v.predicted_p;
      for (const auto& [variant, p] : v.predicted_p) {
        variants.insert(variant);
        s.picked_p[variant] = p.value_or(1);
      }
      for (const ScheduleTraits& one : schedule_traits()) {  // the one-CTA candidates
        if (!one.candidate || one.split != Split::OneCta) continue;
        if (const SweepPoint* b = pool.passed(v.workload, v.m, v.n, one.name, 1))
          if (!s.one_cta || b->time_ms.median < s.one_cta->ms) s.one_cta = timing(*b);
      }
      if (const auto it = measured.find(shape_key(v.workload, v.m, v.n)); it != measured.end()) {
        s.cluster_wins = it->second.cluster_wins;
        s.tie = it->second.tie;
      }
      for (int fd : c.framework_devices)  // later devices replace earlier, as files do
        for (const auto& f : kFrameworks)
          if (const SweepPoint* b = pools_[std::size_t(fd)].passed(v.workload, v.m, v.n, std::string(f.key), 1)) {
            s.baselines[std::string(f.key)] = timing(*b);
            frameworks.insert(std::string(f.key));
          }
      c.shapes.push_back(std::move(s));
    }
    for (const auto& f : kFrameworks)
      if (frameworks.count(std::string(f.key))) c.frameworks.emplace_back(f.key);
    c.variants.assign(variants.begin(), variants.end());
    std::vector<std::string> order;  // workloads in order of first appearance
    for (const auto& w : c.summary.workloads) order.push_back(w.workload);
    auto rank = [&](const ShapeResult& s) {
      return std::make_tuple(std::find(order.begin(), order.end(), s.workload) - order.begin(), s.m, s.n);
    };
    std::stable_sort(c.shapes.begin(), c.shapes.end(),
                     [&](const ShapeResult& a, const ShapeResult& b) { return rank(a) < rank(b); });
    data_.comparisons.push_back(std::move(c));
  }

  // Shapes whose CUDA kernels were timed but that have no prediction (bench files) or no passed
  // baseline: summarize_sweep leaves them out, so say how many.
  void note_unpredicted(int dev, const SweepSummary& s) {
    std::set<ShapeKey> measured, compared;
    for (const auto& p : pools_[std::size_t(dev)].merged.points)
      if (is_cuda_kernel(p.schedule)) measured.insert({p.workload, p.m, p.n});
    for (const auto& v : s.shapes) compared.insert({v.workload, v.m, v.n});
    const auto left = std::count_if(measured.begin(), measured.end(), [&](const ShapeKey& k) { return !compared.count(k); });
    if (left)
      data_.notes.push_back(fmt::format("{}: {} measured shape(s) have no prediction or no passed CUDA baseline, so no "
                                        "baseline path was chosen there: they are not compared (problems are still "
                                        "listed).",
                                        data_.devices[std::size_t(dev)].tag, left));
  }

  void note_unused_frameworks() {
    for (std::size_t d = 0; d < pools_.size(); ++d) {
      if (!pools_[d].has_passed_framework()) continue;
      const bool used = std::any_of(data_.comparisons.begin(), data_.comparisons.end(), [&](const Comparison& c) {
        return std::count(c.framework_devices.begin(), c.framework_devices.end(), int(d)) > 0;
      });
      if (!used)
        data_.notes.push_back(fmt::format("{}: framework baselines measured, but no CREDIT sweep of a {} was given "
                                          "to compare them with.",
                                          data_.devices[d].tag, data_.devices[d].info.name));
    }
  }

  ReportData data_;
  std::vector<Pool> pools_;                  // per device
  std::vector<bool> calibration_from_file_;  // per calibration column
};

// The time model's picks of one sweep file on the shapes of its device's comparison (a later
// file's replace an earlier one's, as its points do).
void add_time_picks(ReportData& d, int device, const PickTable& picks) {
  const auto time = picks.find("time");
  if (time == picks.end()) return;
  for (auto& c : d.comparisons)
    if (c.device == device)
      for (auto& s : c.shapes)
        if (const auto it = time->second.find(shape_key(s.workload, s.m, s.n)); it != time->second.end())
          s.picked_p["time"] = it->second.schedule == "cluster" ? it->second.p : 1;
}

}  // namespace

std::string_view baseline_label(std::string_view key) {
  if (key == kCuda.key) return kCuda.label;
  for (const auto& f : kFrameworks)
    if (f.key == key) return f.label;
  return key;
}

ReportData build_report(const std::vector<NamedResults>& files) {
  ReportData d = Builder(files).take();
  // The newest device inputs for the time model: an input calibration of the same GPU model with
  // the per-workload probe and fitted constants (credit fit-model --json) wins over a sweep's own.
  auto best_calibration = [&](const ResultsFile& sweep) -> const Calibration* {
    for (const auto& f : files)
      if (f.results.kind == "calibration" && f.results.calibration && f.results.calibration->time_model &&
          !f.results.calibration->elem_ns.empty() && f.results.device.name == sweep.device.name)
        return &*f.results.calibration;
    return sweep.calibration ? &*sweep.calibration : nullptr;
  };
  for (std::size_t i = 0; i < files.size(); ++i) {  // d.inputs[i] is files[i]
    const NamedResults& f = files[i];
    const Calibration* cal = best_calibration(f.results);
    if (f.results.kind != "sweep" || !cal || cal->kernels.empty() || cal->copies.size() < 2) continue;
    const TimeModelParams params = model::params_of(*cal);
    const PickTable picks = picks_for(f.results, *cal, params);
    const SelectionReport rep = judge_selection(measured_shapes(f.results), picks);
    d.selections.push_back({f.path, params.fitted_on, rep.stats, rep.ties, rep.with_repeat});
    add_time_picks(d, d.inputs[i].device, picks);
  }
  return d;
}

ReportData load_report(const std::vector<std::filesystem::path>& paths) {
  std::vector<NamedResults> files;
  for (const auto& p : paths) files.push_back({p.string(), read_results(p)});
  return build_report(files);
}

}  // namespace credit::report
