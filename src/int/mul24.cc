// mul24, mad24 (PTX ISA 9.7.1.5 Integer Arithmetic: mul24, 9.7.1.6
// Integer Arithmetic: mad24).
//   t = a<23..0> * b<23..0> (48 bits; .s32 reads each operand sign-extended
//   from bit 23, .u32 zero-extended); bits 31..24 of a and b are ignored.
//   .lo: t<31..0>  .hi: t<47..16>
//   mad24 adds the 32-bit c to that part, modulo 2^32. mad24.hi.sat.s32
//   limits "the result of 32-bit signed addition to MININT..MAXINT": the
//   exact sum of t<47..16> and c, both read as s32, clamped to the s32
//   range, as mad.hi.sat.s32 does (int/mul_mad.cc).
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t mul24(isa::Type t, Part p, uint64_t a, uint64_t b) {
  const Shape s = shape(t);                           // the 32-bit result lane
  const Shape in = with_bits(t, 24);                  // the 24-bit operands
  const s128 prod = in.value(a) * in.value(b);        // |prod| <= 2^46: exact
  const uint64_t bits = static_cast<uint64_t>(prod);  // two's complement, 64 bits
  return (p == Part::hi ? bits >> 16 : bits) & s.mask();
}

uint64_t mad24(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool sat) {
  const Shape s = shape(t);
  const uint64_t m = mul24(t, p, a, b);
  if (!sat) return (m + c) & s.mask();
  return s.clamp(s.value(m) + s.value(c));
}

}  // namespace ptxfu::integer
