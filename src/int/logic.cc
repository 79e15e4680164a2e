// and, or, xor, not, cnot, lop3 (PTX ISA 9.7.8 "Logic and Shift
// Instructions"). Bitwise on the type's width; .pred is one bit wide.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t logic(isa::Type t, Logic op, uint64_t a, uint64_t b) {
  const uint64_t m = low_mask(isa::info(t).bits);
  switch (op) {
    case Logic::and_: return a & b & m;
    case Logic::or_: return (a | b) & m;
    case Logic::xor_: return (a ^ b) & m;
  }
  return 0;
}

uint64_t not_(isa::Type t, uint64_t a) { return ~a & low_mask(isa::info(t).bits); }

uint64_t cnot(isa::Type t, uint64_t a) { return (a & low_mask(isa::info(t).bits)) == 0 ? 1 : 0; }

// The LUT is the function's truth table over ta = 0xf0, tb = 0xcc,
// tc = 0xaa: per bit, a minterm picks one LUT bit. As a sum of minterms:
// d = OR over the set LUT bits k of (a==k2)(b==k1)(c==k0).
uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t d = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (!((lut >> k) & 1)) continue;
    const uint32_t ma = (k & 4) ? a : ~a;
    const uint32_t mb = (k & 2) ? b : ~b;
    const uint32_t mc = (k & 1) ? c : ~c;
    d |= ma & mb & mc;
  }
  return d;
}

}  // namespace ptxfu::integer
