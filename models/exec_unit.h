// One execution unit (FMA, ALU, FP64 or MUFU pipe) of a sub-partition in
// C++: the exact core computes every active lane, with the configured
// timing. The socket and both TLM styles are UnitBase's.
#pragma once
#include "models/unit_base.h"

namespace ptxfu::models {

class ExecUnit final : public UnitBase {
 public:
  ExecUnit(sc_core::sc_module_name name, Unit kind, bool trace) : UnitBase(name, kind, trace, true) {}
};

}  // namespace ptxfu::models
