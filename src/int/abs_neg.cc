// abs, neg (PTX ISA 9.7.1 Integer Arithmetic: abs, neg): two's complement,
// so abs(MIN) = neg(MIN) = MIN.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t abs(isa::Type t, uint64_t a) {
  const Shape s = shape(t);
  return per_lane(s, a, 0, [&](uint64_t x, uint64_t) {
    const s128 v = s.value(x);
    return s.wrap(v < 0 ? -v : v);
  });
}

uint64_t neg(isa::Type t, uint64_t a) {
  const Shape s = shape(t);
  return per_lane(s, a, 0, [&](uint64_t x, uint64_t) { return s.wrap(-s.value(x)); });
}

}  // namespace ptxfu::integer
