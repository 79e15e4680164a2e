// fns.b32 (PTX ISA 9.7.1 Integer Arithmetic: fns): the position of the
// |offset|-th set bit of mask counting from base, upward for offset > 0 and
// downward for offset < 0 (base itself counts); offset 0 asks whether bit
// base is set. 0xffffffff when there is no such bit. base > 31 is undefined
// in the ISA; here it is "not found" (see int/int_ops.h).
#include "int/int_ops.h"

namespace ptxfu::integer {
namespace {
constexpr uint32_t kNotFound = 0xffffffffu;
}  // namespace

uint32_t fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31) return kNotFound;
  if (offset == 0) return ((mask >> base) & 1) ? base : kNotFound;
  int64_t n = offset > 0 ? offset : -static_cast<int64_t>(offset);
  if (offset > 0) {
    uint32_t m = mask & (~0u << base);        // candidates at or above base
    for (; n > 1 && m != 0; --n) m &= m - 1;  // drop the lowest
    return m != 0 ? static_cast<uint32_t>(__builtin_ctz(m)) : kNotFound;
  }
  uint32_t m = mask & (base == 31 ? ~0u : (2u << base) - 1);             // at or below base
  for (; n > 1 && m != 0; --n) m &= ~(0x80000000u >> __builtin_clz(m));  // drop the highest
  return m != 0 ? 31 - static_cast<uint32_t>(__builtin_clz(m)) : kNotFound;
}

}  // namespace ptxfu::integer
