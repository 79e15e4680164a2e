// div, rem (PTX ISA 9.7.1 Integer Arithmetic: div, rem). Truncating
// division as in C; the ISA leaves division by zero machine-specific, the
// values chosen here are documented in int/int_ops.h.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t div(isa::Type t, uint64_t a, uint64_t b) {
  const Shape s = shape(t);
  return per_lane(s, a, b, [&](uint64_t x, uint64_t y) {
    if (y == 0) return s.mask();             // all ones: u max, s -1
    return s.wrap(s.value(x) / s.value(y));  // MIN / -1 wraps to MIN
  });
}

uint64_t rem(isa::Type t, uint64_t a, uint64_t b) {
  const Shape s = shape(t);
  return per_lane(s, a, b, [&](uint64_t x, uint64_t y) {
    if (y == 0) return x;  // a - div(a, 0) * 0
    return s.wrap(s.value(x) % s.value(y));
  });
}

}  // namespace ptxfu::integer
