// shl, shr, shf (PTX ISA 9.7.8 "Logic and Shift Instructions"). The ISA
// clamps shl/shr amounts above the register width to the width.
#include <algorithm>

#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t shl(isa::Type t, uint64_t a, uint32_t n) {
  const Shape s = shape(t);
  if (n >= s.bits) return 0;
  return (a << n) & s.mask();
}

uint64_t shr(isa::Type t, uint64_t a, uint32_t n) {
  const Shape s = shape(t);
  const unsigned k = std::min<uint32_t>(n, s.bits);  // s.bits: every bit shifted out
  return s.wrap(s.value(a) >> k);                    // the value is sign-extended for .s, else zero-extended
}

uint32_t shf(Direction dir, Bound mode, uint32_t a, uint32_t b, uint32_t n) {
  n = mode == Bound::wrap ? n & 31 : std::min<uint32_t>(n, 32);
  const uint64_t ba = (static_cast<uint64_t>(b) << 32) | a;
  if (dir == Direction::left) return static_cast<uint32_t>((ba << n) >> 32);
  return static_cast<uint32_t>(ba >> n);
}

}  // namespace ptxfu::integer
