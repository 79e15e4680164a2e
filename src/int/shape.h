// Integer types as data. An integer operation reads lane width, lane count
// and signedness from isa::kTypeInfo through `Shape` and never switches on a
// type name, so u16 ... s64 and the x2 packs share one code path each.
#pragma once
#include <cstdint>

#include "isa/instr.h"

namespace ptxfu::integer {

using u128 = unsigned __int128;
using s128 = __int128;

// The low `bits` bits set (all 64 for bits >= 64).
constexpr uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// One lane of an integer type. Values are computed in 128 bits, which holds
// every lane value (u64 and s64 included) and every sum of two of them.
struct Shape {
  unsigned bits;   // width of one lane
  unsigned lanes;  // 2 for the x2 packs, else 1
  bool is_signed;

  constexpr uint64_t mask() const { return low_mask(bits); }
  // The number a lane's bit pattern stands for.
  constexpr s128 value(uint64_t lane) const {
    lane &= mask();
    if (is_signed && ((lane >> (bits - 1)) & 1)) return static_cast<s128>(lane) - (s128{1} << bits);
    return static_cast<s128>(lane);
  }
  constexpr s128 min() const { return is_signed ? -(s128{1} << (bits - 1)) : 0; }
  constexpr s128 max() const { return is_signed ? (s128{1} << (bits - 1)) - 1 : static_cast<s128>(mask()); }
  // Two's-complement wrap to the lane width.
  constexpr uint64_t wrap(s128 v) const { return static_cast<uint64_t>(v) & mask(); }
  // Saturation to the lane's range (.sat, and the .relu floor via min()).
  constexpr uint64_t clamp(s128 v) const { return wrap(v < min() ? min() : v > max() ? max() : v); }
  constexpr bool negative(uint64_t lane) const { return is_signed && ((lane >> (bits - 1)) & 1); }
};

constexpr Shape shape(isa::Type t) {
  const isa::TypeInfo& i = isa::info(t);
  return {static_cast<unsigned>(i.bits / i.lanes), i.lanes, i.cls == isa::TypeClass::signed_int};
}

// The same signedness at another lane width (dp4a bytes, dp2a halves).
constexpr Shape with_bits(isa::Type t, unsigned bits) { return {bits, 1, shape(t).is_signed}; }

// Applies op(lane of a, lane of b) to every lane; lane 0 is bits [bits-1:0].
template <class Op>
uint64_t per_lane(const Shape& s, uint64_t a, uint64_t b, Op op) {
  uint64_t d = 0;
  for (unsigned i = 0; i < s.lanes; ++i) {
    const unsigned at = i * s.bits;
    d |= (op((a >> at) & s.mask(), (b >> at) & s.mask()) & s.mask()) << at;
  }
  return d;
}

}  // namespace ptxfu::integer
