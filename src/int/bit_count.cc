// popc, clz, bfind, brev (PTX ISA 9.7.1 Integer Arithmetic: popc, clz,
// bfind, brev). Counts are .u32 whatever the operand width.
#include "int/int_ops.h"
#include "int/shape.h"

namespace ptxfu::integer {
namespace {

constexpr uint32_t kNotFound = 0xffffffffu;

uint64_t reverse64(uint64_t x) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
  x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
  return (x >> 32) | (x << 32);
}

}  // namespace

uint32_t popc(isa::Type t, uint64_t a) { return static_cast<uint32_t>(__builtin_popcountll(a & shape(t).mask())); }

uint32_t clz(isa::Type t, uint64_t a) {
  const Shape s = shape(t);
  a &= s.mask();
  if (a == 0) return s.bits;
  return static_cast<uint32_t>(__builtin_clzll(a)) - (64 - s.bits);
}

uint32_t bfind(isa::Type t, uint64_t a, bool shiftamt) {
  const Shape s = shape(t);
  a &= s.mask();
  if (s.negative(a)) a = ~a & s.mask();  // a signed value's top bits are sign bits
  if (a == 0) return kNotFound;
  const uint32_t pos = 63 - static_cast<uint32_t>(__builtin_clzll(a));
  return shiftamt ? s.bits - 1 - pos : pos;
}

uint64_t brev(isa::Type t, uint64_t a) {
  const Shape s = shape(t);
  return reverse64(a & s.mask()) >> (64 - s.bits);
}

}  // namespace ptxfu::integer
