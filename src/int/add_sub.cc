// add, sub (PTX ISA 9.7.1 Integer Arithmetic: add, sub). The x2 packs work
// lane by lane; .sat clamps the exact result.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

// (The scalar wrapping case is inline in int_ops.h.)
uint64_t add_per_lane(isa::Type t, uint64_t a, uint64_t b, bool sat) {
  const Shape s = shape(t);
  return per_lane(s, a, b, [&](uint64_t x, uint64_t y) {
    const s128 r = s.value(x) + s.value(y);
    return sat ? s.clamp(r) : s.wrap(r);
  });
}

uint64_t sub_per_lane(isa::Type t, uint64_t a, uint64_t b, bool sat) {
  const Shape s = shape(t);
  return per_lane(s, a, b, [&](uint64_t x, uint64_t y) {
    const s128 r = s.value(x) - s.value(y);
    return sat ? s.clamp(r) : s.wrap(r);
  });
}

}  // namespace ptxfu::integer
