// The verilated RTL configurations of this build as Units for the
// co-simulation harness: one C++ Verilator model per unit and NUM_STAGES,
// plus the deliberately broken HFMA2 (cosim/CMakeLists.txt verilates them;
// ptxfu_rtl_factory generates the table, cosim/rtl_models.h).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cosim/rtl_models.h"
#include "cosim/unit.h"

namespace ptxfu::cosim {

// The flavour of rtl_models.h for the harness: VerilatedUnit<M, K>
// (cosim/verilated_unit.h defines make).
struct VerilatedUnitModel {
  using Make = std::unique_ptr<Unit> (*)(std::string name, unsigned latency, unsigned tag_bits);
  template <class M, UnitKind K>
  static std::unique_ptr<Unit> make(std::string name, unsigned latency, unsigned tag_bits);
};

// stages < 0: the unit's default configuration. nullptr with `error` set when
// the build has no such model.
std::unique_ptr<Unit> make_rtl_unit(UnitKind kind, int stages, bool broken, std::string& error);

// NUM_STAGES values compiled for `kind` (non-broken), default first.
std::vector<int> rtl_stages(UnitKind kind);

}  // namespace ptxfu::cosim
