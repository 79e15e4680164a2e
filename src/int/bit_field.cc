// bfe, bfi (PTX ISA 9.7.1 Integer Arithmetic: bfe, bfi). pos and len are
// .u32 operands of which only bits 7:0 count (0..255). Written as masks; the
// tests check them against the ISA's bit-by-bit pseudo-code.
#include <algorithm>

#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

// d[i] = a[pos+i] for i < len and pos+i <= msb; every other bit is the
// field's sign bit a[min(pos+len-1, msb)] for signed types (0 when len = 0),
// else 0.
uint64_t bfe(isa::Type t, uint64_t a, uint32_t pos, uint32_t len) {
  const Shape s = shape(t);
  pos &= 0xff;
  len &= 0xff;
  a &= s.mask();
  const unsigned inside = pos >= s.bits ? 0 : std::min<unsigned>(len, s.bits - pos);
  const uint64_t field = inside == 0 ? 0 : (a >> pos) & low_mask(inside);
  const bool sign = s.is_signed && len != 0 && ((a >> std::min<unsigned>(pos + len - 1, s.bits - 1)) & 1);
  return sign ? field | (s.mask() & ~low_mask(inside)) : field;
}

// f = b with bits [pos, pos+len) clipped to the msb taken from a's low bits.
uint64_t bfi(isa::Type t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len) {
  const Shape s = shape(t);
  pos &= 0xff;
  len &= 0xff;
  b &= s.mask();
  if (pos >= s.bits || len == 0) return b;
  const uint64_t m = low_mask(std::min<unsigned>(len, s.bits - pos)) << pos;
  return (b & ~m) | ((a << pos) & m);
}

}  // namespace ptxfu::integer
