// min, max (PTX ISA 9.7.1 Integer Arithmetic: min, max). Lane by lane for
// the x2 packs; .relu (s32, s16x2) replaces a negative result by 0.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {
namespace {

template <class Pick>
uint64_t select(isa::Type t, uint64_t a, uint64_t b, bool relu, Pick pick) {
  const Shape s = shape(t);
  return per_lane(s, a, b, [&](uint64_t x, uint64_t y) {
    const s128 r = pick(s.value(x), s.value(y));
    return s.wrap(relu && r < 0 ? 0 : r);
  });
}

}  // namespace

uint64_t min(isa::Type t, uint64_t a, uint64_t b, bool relu) {
  return select(t, a, b, relu, [](s128 x, s128 y) { return y < x ? y : x; });
}

uint64_t max(isa::Type t, uint64_t a, uint64_t b, bool relu) {
  return select(t, a, b, relu, [](s128 x, s128 y) { return y > x ? y : x; });
}

}  // namespace ptxfu::integer
