// The core golden model: ptxfu::exec::execute, the same code `ptxfu eval` runs.
#include "cosim/golden.h"

#if PTXFU_COSIM_HAVE_CORE
#include "exec/execute.h"
#endif

namespace ptxfu::cosim {

Golden core_golden() {
#if PTXFU_COSIM_HAVE_CORE
  return [](const isa::Instr& in, const uint64_t* src) {
    return exec::execute(in, src, false).value;
  };
#else
  return {};
#endif
}

}  // namespace ptxfu::cosim
