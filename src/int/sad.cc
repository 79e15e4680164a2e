// sad (PTX ISA 9.7.1.7 Integer Arithmetic: sad): sum of absolute
// differences, d = c + ((a < b) ? b - a : a - b).
// a and b are compared and subtracted at their signed or unsigned value, so
// |a - b| is exact (up to 2^n - 1, e.g. sad.s16 0x7fff 0x8000 = 0xffff);
// the addition to c wraps modulo 2^n, where signedness does not matter.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {

uint64_t sad(isa::Type t, uint64_t a, uint64_t b, uint64_t c) {
  const Shape s = shape(t);
  const s128 x = s.value(a);
  const s128 y = s.value(b);
  const s128 diff = x < y ? y - x : x - y;  // 0 .. 2^n - 1
  return (c + static_cast<uint64_t>(diff)) & s.mask();
}

}  // namespace ptxfu::integer
