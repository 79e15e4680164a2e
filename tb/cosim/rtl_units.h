// The verilated RTL configurations compiled into this build (CMakeLists.txt
// generates the table: one Verilator model per unit and NUM_STAGES, plus the
// deliberately broken HFMA2).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cosim/unit.h"

namespace ptxfu::cosim {

// stages < 0: the unit's default configuration. nullptr with `error` set when
// the build has no such model.
std::unique_ptr<Unit> make_rtl_unit(UnitKind kind, int stages, bool broken, std::string& error);

// NUM_STAGES values compiled for `kind` (non-broken), default first.
std::vector<int> rtl_stages(UnitKind kind);

}  // namespace ptxfu::cosim
