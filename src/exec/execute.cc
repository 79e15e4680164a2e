#include "exec/execute.h"

#include <stdexcept>
#include <string>

#include "isa/forms.h"

namespace ptxfu::exec {

Result execute(const isa::Instr& instr, const uint64_t* src, bool carry_in) {
  Result r;
  if (isa::info(instr.type).cls != isa::TypeClass::floating) {
    if (execute_int(instr, src, carry_in, r)) return r;
  } else if (execute_approx(instr, src, r) || execute_float(instr, src, r)) {
    return r;
  }
  // Unreachable for a legal form: the executor tests run every form of the table.
  throw std::logic_error("no executor for " + isa::spell(instr));
}

}  // namespace ptxfu::exec
