// The carry chain (PTX ISA 9.7.2 Extended-Precision Integer Arithmetic:
// add.cc, addc, sub.cc, subc, mad.cc, madc). CC.CF is one bit, the carry out
// of bit n-1 of an n-bit addition, the same for signed and unsigned types.
// Subtraction is a + ~b + CF, so after sub.cc CF = 1 means "no borrow"; see
// int/int_ops.h for how this relates to the ISA's "borrow" wording.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

CarryOut add_carry(isa::Type t, uint64_t a, uint64_t b, bool carry_in) {
  const Shape s = shape(t);
  const u128 sum = static_cast<u128>(a & s.mask()) + (b & s.mask()) + (carry_in ? 1 : 0);
  return {static_cast<uint64_t>(sum) & s.mask(), ((sum >> s.bits) & 1) != 0};
}

CarryOut sub_carry(isa::Type t, uint64_t a, uint64_t b, bool carry_in) { return add_carry(t, a, ~b, carry_in); }

CarryOut mad_carry(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool carry_in) {
  return add_carry(t, mul(t, p, a, b), c, carry_in);
}

// ptxas also accepts .sat (s32, never with .cc) on addc, subc and madc.hi:
// the exact signed value of the same sum, clamped like add.sat/mad.hi.sat.
uint64_t add_carry_sat(isa::Type t, uint64_t a, uint64_t b, bool carry_in) {
  const Shape s = shape(t);
  return s.clamp(s.value(a & s.mask()) + s.value(b & s.mask()) + (carry_in ? 1 : 0));
}

uint64_t sub_carry_sat(isa::Type t, uint64_t a, uint64_t b, bool carry_in) { return add_carry_sat(t, a, ~b, carry_in); }

uint64_t mad_carry_sat(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool carry_in) {
  return add_carry_sat(t, mul(t, p, a, b), c, carry_in);
}

}  // namespace ptxfu::integer
