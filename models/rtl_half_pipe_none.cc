// The factory of a build configured with -DPTXFU_MODEL_RTL=OFF: no verilated
// models, so validate() refuses rtl_half jobs with a message.
#include "models/rtl_half_pipe.h"

namespace ptxfu::models {

std::unique_ptr<sc_core::sc_module> make_hfma2_pipe(const char*, unsigned, bool, HalfPipeShared&, HalfPipeLane&) {
  return nullptr;
}

std::vector<unsigned> hfma2_pipe_stages(bool) { return {}; }

}  // namespace ptxfu::models
