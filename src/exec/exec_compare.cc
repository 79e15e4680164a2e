// setp, set, selp and slct: comparisons and selection. No row names this
// executor yet; the families arrive with their rows.
#include "exec/execute.h"

namespace ptxfu::exec {

bool execute_compare(const isa::Instr&, const uint64_t*, Result&) { return false; }

}  // namespace ptxfu::exec
