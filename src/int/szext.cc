// szext.{u32,s32} (PTX ISA 9.7.1 Integer Arithmetic: szext): extend the low
// N bits of a, zero (.u32) or sign (.s32). N = n mod 32 for .wrap, min(n, 32)
// for .clamp; N = 0 gives 0 and N = 32 gives a unchanged.
#include <algorithm>

#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint32_t szext(isa::Type t, uint32_t a, uint32_t n, Bound mode) {
  const uint32_t bits = mode == Bound::wrap ? (n & 31) : std::min<uint32_t>(n, 32);
  if (bits == 0) return 0;
  if (bits == 32) return a;
  const Shape s{bits, 1, shape(t).is_signed};
  return static_cast<uint32_t>(s.value(a));  // the N-bit value, wrapped to 32 bits
}

}  // namespace ptxfu::integer
