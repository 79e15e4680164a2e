// dp4a, dp2a (PTX ISA 9.7.1 Integer Arithmetic: dp4a, dp2a).
//   dp4a: d = c + sum_{i<4} a.byte[i] * b.byte[i]
//   dp2a: d = c + sum_{i<2} a.half[i] * b.byte[s+i], s = 0 (.lo) or 2 (.hi)
// Each side is sign- or zero-extended by its own type (.atype, .btype);
// the sum wraps modulo 2^32, so c's signedness does not matter.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {
namespace {

s128 element(const Shape& s, uint32_t word, unsigned i) { return s.value(word >> (i * s.bits)); }

}  // namespace

uint32_t dp4a(isa::Type ta, isa::Type tb, uint32_t a, uint32_t b, uint32_t c) {
  const Shape sa = with_bits(ta, 8), sb = with_bits(tb, 8);
  s128 d = c;
  for (unsigned i = 0; i < 4; ++i) d += element(sa, a, i) * element(sb, b, i);
  return static_cast<uint32_t>(d);
}

uint32_t dp2a(isa::Type ta, isa::Type tb, bool hi, uint32_t a, uint32_t b, uint32_t c) {
  const Shape sa = with_bits(ta, 16), sb = with_bits(tb, 8);
  const unsigned first = hi ? 2 : 0;
  s128 d = c;
  for (unsigned i = 0; i < 2; ++i) d += element(sa, a, i) * element(sb, b, first + i);
  return static_cast<uint32_t>(d);
}

}  // namespace ptxfu::integer
