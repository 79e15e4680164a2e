#include "cosim/rtl_units.h"

namespace ptxfu::cosim {

std::unique_ptr<Unit> make_rtl_unit(UnitKind kind, int stages, bool broken, std::string& error) {
  if (stages < 0) {
    const std::vector<int> have = rtl_stages(kind);
    stages = have.empty() ? 0 : have.front();
  }
  const RtlModel<VerilatedUnitModel>* m =
      find_rtl_model<VerilatedUnitModel>(kind, static_cast<unsigned>(stages), broken);
  if (m == nullptr) {
    error = std::string("this build has no ") + (broken ? "broken " : "") + name(kind) +
            " model with NUM_STAGES=" + std::to_string(stages);
    return nullptr;
  }
  return m->make(std::string(name(kind)) + " NUM_STAGES=" + std::to_string(stages) +
                     (broken ? " (broken: PTXFU_BREAK_ROUNDING)" : ""),
                 m->stages, m->tag_bits);
}

std::vector<int> rtl_stages(UnitKind kind) {
  std::vector<int> s;
  for (unsigned st : rtl_model_stages<VerilatedUnitModel>(kind, false)) s.push_back(static_cast<int>(st));
  return s;
}

}  // namespace ptxfu::cosim
