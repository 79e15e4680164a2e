// bmsk.b32 (PTX ISA 9.7.1 Integer Arithmetic: bmsk): ones in bits
// [start, start+width) that lie below 32. .wrap reads start and width
// modulo 32; .clamp limits each to 32. Written as an interval; the tests
// check it against the ISA's mask0/mask1 pseudo-code.
#include <algorithm>

#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint32_t bmsk(uint32_t start, uint32_t width, Bound mode) {
  if (mode == Bound::wrap) {
    start &= 31;
    width &= 31;
  } else {
    start = std::min<uint32_t>(start, 32);
    width = std::min<uint32_t>(width, 32);
  }
  const uint32_t end = std::min<uint32_t>(start + width, 32);
  return static_cast<uint32_t>(low_mask(end) & ~low_mask(start));
}

}  // namespace ptxfu::integer
