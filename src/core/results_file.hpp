#pragma once
// A results file as one record: its kind ("calibration", "prediction", "sweep", "ladder") and provenance, and the
// parts the kinds fill (a calibration, predictions, measured points). The JSON layout carries every part in every
// kind, so one record holds them all; io/json_records.hpp reads and writes it.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "calibration/calibration.hpp"
#include "core/device_info.hpp"
#include "core/prediction.hpp"
#include "core/results_meta.hpp"
#include "core/shape_draw.hpp"
#include "core/sweep_point.hpp"

namespace credit {

inline constexpr int kSchemaVersion = 1;

struct ResultsFile {
  int schema_version = kSchemaVersion;
  std::string kind;  // "calibration", "prediction", "sweep", "ladder"
  Meta meta;
  DeviceInfo device;
  std::optional<Calibration> calibration;
  std::vector<Prediction> predictions;
  std::vector<SweepPoint> points;
  double copy_gbps = 0;  // copy bandwidth measured in the same run (read + write bytes)
  std::optional<ShapeDraw> draw;  // a sweep of `credit validate`: how its shapes were drawn
};

// Points that were incorrect or failed (the commands exit 1 when there are any).
inline std::size_t failed_points(const ResultsFile& r) {
  std::size_t bad = 0;
  for (const auto& p : r.points) bad += p.disposition == Disposition::Incorrect || p.disposition == Disposition::Failed;
  return bad;
}

}  // namespace credit
