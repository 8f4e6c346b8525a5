#include "core/dram_traffic.hpp"

#include <stdexcept>

namespace credit::dram {

bool over_model(const SweepPoint& p, const DramTraffic& d) {
  return d.read_bytes + d.write_bytes > kOverModel * p.traffic_bytes;
}

PerElement per_element(const SweepPoint& p) {
  if (!p.dram) throw std::logic_error(p.workload + " " + p.schedule + ": no measured DRAM traffic");
  const double e = double(p.m) * double(p.n);
  PerElement r;
  r.read = p.dram->read_bytes / e;
  r.write = p.dram->write_bytes / e;
  r.total = r.read + r.write;
  r.model = p.traffic_bytes / e;
  r.compulsory = p.compulsory_bytes / e;
  r.reread = r.model - r.compulsory;
  r.over_model = over_model(p, *p.dram);
  return r;
}

}  // namespace credit::dram
