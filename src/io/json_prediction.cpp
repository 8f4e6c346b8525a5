#include "io/json_prediction.hpp"

namespace credit {

using nlohmann::json;

namespace io {
namespace {

CandidateTime read_candidate(const Node& n) { return read_flat(n, io::kCandidateFields); }

PredictionRow read_row(const Node& n) { return read_flat(n, io::kPredictionRowFields); }

}  // namespace

Prediction read_prediction(const Node& n) {
  Prediction p;
  p.workload = read_workload(n.field("workload"));
  p.model = n.field("model").str();
  p.m = read_extent(n.field("m"));
  p.n = read_extent(n.field("n"));
  p.baseline = n.field("baseline").str();
  p.t_b_ms = n.field("t_b_ms").num();
  const Node rows = n.field("rows");
  for (std::size_t i = 0, k = rows.size(); i < k; ++i) p.rows.push_back(read_row(rows.item(i)));
  if (n.has("best_p")) p.best_p = n.field("best_p").integer<int>();
  if (n.has("candidates")) {
    const Node cs = n.field("candidates");
    for (std::size_t i = 0, k = cs.size(); i < k; ++i) p.candidates.push_back(read_candidate(cs.item(i)));
  }
  if (n.has("pick_schedule")) p.pick_schedule = n.field("pick_schedule").str();
  if (n.has("pick_p")) p.pick_p = n.field("pick_p").integer<int>();
  if (n.has("pick_ms")) p.pick_ms = n.field("pick_ms").num();
  return p;
}

}  // namespace io

using io::number;
using io::write_flat;

void to_json(json& j, const CandidateTime& c) { j = write_flat(c, io::kCandidateFields); }

void to_json(json& j, const PredictionRow& r) { j = write_flat(r, io::kPredictionRowFields); }

void to_json(json& j, const Prediction& p) {
  j = json{{"workload", p.workload},
           {"model", p.model},
           {"m", p.m},
           {"n", p.n},
           {"baseline", p.baseline},
           {"t_b_ms", number(p.t_b_ms)},
           {"rows", p.rows},
           {"best_p", p.best_p ? json(*p.best_p) : json(nullptr)}};
  if (!p.candidates.empty() || !p.pick_schedule.empty()) {
    j["candidates"] = p.candidates;
    j["pick_schedule"] = p.pick_schedule;
    j["pick_p"] = p.pick_p;
    j["pick_ms"] = number(p.pick_ms);
  }
}

}  // namespace credit
