// The load/store unit of a sub-partition: how long a kernel's memory
// instruction takes depends on its state space and, for global memory, on
// whether it hits. The share of hits is the config's global_hit_rate,
// spread evenly and deterministically over the unit's global loads (a
// model, not a cache simulator). How long the unit is occupied (one
// interval per coalesced transaction) the dispatcher puts in the timing.
#pragma once
#include "models/unit_base.h"

namespace ptxfu::models {

class LsuUnit final : public UnitBase {
 public:
  LsuUnit(sc_core::sc_module_name name, const MemoryTiming& memory, bool trace)
      : UnitBase(name, Unit::lsu, trace, true), memory_(memory) {}

 protected:
  unsigned latency(const WarpOp& op) const override {
    if (op.access.is_access) return access_latency(op.access);
    return op.timing.latency;
  }

 private:
  unsigned access_latency(const MemoryAccess& a) const {
    if (a.atomic) return memory_.atomic;
    if (a.remote && memory_.dsmem) return memory_.dsmem;
    switch (a.space) {
      case kernel::Space::shared: return memory_.shared;
      case kernel::Space::local: return memory_.local;
      case kernel::Space::const_: return memory_.constant;
      case kernel::Space::param: return memory_.param;
      case kernel::Space::global:
      case kernel::Space::generic: break;
    }
    hits_ += memory_.global_hit_rate;
    if (hits_ >= 1.0) {
      hits_ -= 1.0;
      return memory_.global;
    }
    return memory_.global_miss;
  }

  const MemoryTiming& memory_;
  mutable double hits_ = 0.5;  // so that a rate of 0.5 alternates from a hit
};

}  // namespace ptxfu::models
