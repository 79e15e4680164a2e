// The core golden model: ptxfu::exec::execute, the same code `ptxfu eval` runs.
#include "cosim/golden.h"
#include "exec/execute.h"

namespace ptxfu::cosim {

Golden core_golden() {
  return [](const isa::Instr& in, const uint64_t* src) { return exec::execute(in, src, false).value; };
}

}  // namespace ptxfu::cosim
