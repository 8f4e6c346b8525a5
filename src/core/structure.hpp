#pragma once
// What a row-wise operator's structure leaves for a cluster to reuse (DESIGN.md section 3). A
// declaration may state it (`static constexpr Structure structure = ...`); the seven workloads
// leave it to be derived from what they read (core/static_figures.hpp). The model's structural
// rules reject every class but reduction-reuse by construction.
namespace credit {

enum class Structure { ReductionReuse, Elementwise, OnePassReduction, Scan, Selection };

constexpr const char* structure_name(Structure s) {
  switch (s) {
    case Structure::ReductionReuse: return "reduction-reuse";
    case Structure::Elementwise: return "elementwise";
    case Structure::OnePassReduction: return "one-pass reduction";
    case Structure::Scan: return "scan";
    case Structure::Selection: return "selection";
  }
  return "?";
}

}  // namespace credit
