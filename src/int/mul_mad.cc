// mul, mad (PTX ISA 9.7.1 Integer Arithmetic: mul, mad).
//   t = a * b (2n bits); .lo: t<n-1..0>  .hi: t<2n-1..n>  .wide: t
//   mad adds c to that part; mad.hi.sat.s32 limits hi(t) + c to
//   MININT..MAXINT ("no overflow for the size of the operation").
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {
namespace {

// The product of two lanes modulo 2^128: exact in its low 2n bits, n <= 64,
// because the operands are taken at their signed or unsigned value.
u128 product(const Shape& s, uint64_t a, uint64_t b) {
  return static_cast<u128>(s.value(a)) * static_cast<u128>(s.value(b));
}

uint64_t part_of(const Shape& s, Part p, u128 t) {
  switch (p) {
    case Part::lo: return static_cast<uint64_t>(t) & s.mask();
    case Part::hi: return static_cast<uint64_t>(t >> s.bits) & s.mask();
    case Part::wide: break;
  }
  return static_cast<uint64_t>(t) & low_mask(2 * s.bits);
}

}  // namespace

// The low half of a product (and a sum with it) does not depend on
// signedness modulo 2^n: plain 64-bit arithmetic (the models' hot path).
uint64_t mul(isa::Type t, Part p, uint64_t a, uint64_t b) {
  const Shape s = shape(t);
  if (p == Part::lo) return (a * b) & s.mask();
  return part_of(s, p, product(s, a, b));
}

uint64_t mad(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool sat) {
  const Shape s = shape(t);
  if (p == Part::lo && !sat) return (a * b + c) & s.mask();
  const uint64_t m = part_of(s, p, product(s, a, b));
  if (p == Part::wide) return (m + c) & low_mask(2 * s.bits);
  const s128 r = s.value(m) + s.value(c);
  return sat ? s.clamp(r) : s.wrap(r);
}

}  // namespace ptxfu::integer
