#include "models/rtl_half_pipe.h"

namespace ptxfu::models {

std::unique_ptr<sc_core::sc_module> make_hfma2_pipe(const char* name, unsigned stages, bool broken,
                                                    HalfPipeShared& shared, HalfPipeLane& lane) {
  const auto* m = cosim::find_rtl_model<HalfPipeModel>(cosim::UnitKind::hfma2, stages, broken);
  if (m == nullptr || m->tag_bits != kHalfPipeTagBits) return nullptr;
  return m->make(name, shared, lane);
}

std::vector<unsigned> hfma2_pipe_stages(bool broken) {
  return cosim::rtl_model_stages<HalfPipeModel>(cosim::UnitKind::hfma2, broken);
}

}  // namespace ptxfu::models
