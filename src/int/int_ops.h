// The integer functional unit, bit-exact. Every function takes and returns
// bit patterns (zero-extended to 64 bits) and reads the type as data
// (int/shape.h). Semantics follow the PTX ISA 9.1, section 9.7.1 "Integer
// Arithmetic Instructions" and 9.7.2 "Extended-Precision Integer Arithmetic
// Instructions"; each source file names the instruction page it follows.
//
// Where the ISA leaves a result unspecified, this model picks one value and
// documents it here and in the README:
//   div / rem by zero     quotient all ones (u: max, s: -1); remainder = a.
//                         nvcc's division sequence replaces the quotient
//                         with ~b = 0xff..ff when b == 0, and then
//                         a - q*b = a, so rem(a, 0) = a. Signed follows the
//                         same select (the sign fix-up happens before it).
//   div MIN / -1          wraps to MIN; rem MIN % -1 = 0.
//   fns with base > 31    (base read as u32, so negative .s32 too): the ISA
//                         calls it undefined; returns 0xffffffff ("not
//                         found"), what the ISA pseudo-code yields when its
//                         scan starts outside 0..31.
//   sub.cc / subc CC.CF   the carry-out of a + ~b + CF (1 = no borrow), as the
//                         hardware computes it; subc computes a + ~b + CF.
//                         The ISA's wording "d = a - (b + CC.CF), borrow-out"
//                         gives the same d for every sub.cc/subc chain; the
//                         flag differs only when read by the other family.
#pragma once
#include <cstdint>

#include "int/shape.h"
#include "isa/instr.h"

namespace ptxfu::integer {

// Which part of the 2n-bit product mul/mad keep.
enum class Part : uint8_t { lo, hi, wide };
// How bmsk and szext treat an out-of-range position or width.
enum class Bound : uint8_t { clamp, wrap };

// add/sub: wrap per lane; `sat` clamps to the type's range (.sat.s32).
// Without .sat a scalar lane wraps modulo 2^n, where signedness does not
// matter: plain 64-bit arithmetic gives the same bits. That case is inline
// (the models' hot path: a warp's lanes in one loop); the rest is per lane.
uint64_t add_per_lane(isa::Type t, uint64_t a, uint64_t b, bool sat);
uint64_t sub_per_lane(isa::Type t, uint64_t a, uint64_t b, bool sat);
inline uint64_t add(isa::Type t, uint64_t a, uint64_t b, bool sat) {
  const Shape s = shape(t);
  return !sat && s.lanes == 1 ? (a + b) & s.mask() : add_per_lane(t, a, b, sat);
}
inline uint64_t sub(isa::Type t, uint64_t a, uint64_t b, bool sat) {
  const Shape s = shape(t);
  return !sat && s.lanes == 1 ? (a - b) & s.mask() : sub_per_lane(t, a, b, sat);
}

// mul: the lo or hi n bits of a*b, or all 2n bits (.wide, n = 16 or 32).
uint64_t mul(isa::Type t, Part p, uint64_t a, uint64_t b);
// mad: mul's part plus c (c is 2n bits for .wide); `sat` (.hi.sat.s32)
// clamps the exact sum hi(a*b) + c to the type's range.
uint64_t mad(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool sat);

// mul24 (.u32/.s32): the 48-bit product of the low 24 bits of a and b
// (sign-extended from bit 23 for .s32; bits 31..24 ignored); Part::lo keeps
// bits 31..0, Part::hi bits 47..16. Part::wide is not a mul24 form.
uint64_t mul24(isa::Type t, Part p, uint64_t a, uint64_t b);
// mad24: mul24's part plus the 32-bit c, wrapping; `sat` (legal only as
// .hi.sat.s32) clamps the exact sum part + c, both read at the type's
// signedness, to the type's range, as mad's `sat` does.
uint64_t mad24(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool sat);

// sad: c + |a - b| for u16 ... s64; |a - b| is exact at the type's
// signedness, the sum wraps modulo 2^n.
uint64_t sad(isa::Type t, uint64_t a, uint64_t b, uint64_t c);

// div/rem truncate toward zero; by zero see above.
uint64_t div(isa::Type t, uint64_t a, uint64_t b);
uint64_t rem(isa::Type t, uint64_t a, uint64_t b);

// abs(MIN) = MIN and neg(MIN) = MIN (two's-complement wrap).
uint64_t abs(isa::Type t, uint64_t a);
uint64_t neg(isa::Type t, uint64_t a);

// min/max per lane; `relu` turns a negative result into 0.
uint64_t min(isa::Type t, uint64_t a, uint64_t b, bool relu);
uint64_t max(isa::Type t, uint64_t a, uint64_t b, bool relu);

// Bit counting; results are .u32.
uint32_t popc(isa::Type t, uint64_t a);
uint32_t clz(isa::Type t, uint64_t a);
// Most significant non-sign bit, 0xffffffff if none; `shiftamt` returns the
// left shift that moves it to the msb instead.
uint32_t bfind(isa::Type t, uint64_t a, bool shiftamt);
uint64_t brev(isa::Type t, uint64_t a);

// Bit fields; pos and len are the low 8 bits of their .u32 operands.
uint64_t bfe(isa::Type t, uint64_t a, uint32_t pos, uint32_t len);
uint64_t bfi(isa::Type t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len);
uint32_t fns(uint32_t mask, uint32_t base, int32_t offset);
uint32_t bmsk(uint32_t start, uint32_t width, Bound mode);
uint32_t szext(isa::Type t, uint32_t a, uint32_t n, Bound mode);

// Dot products accumulated modulo 2^32; ta/tb give each side's signedness.
uint32_t dp4a(isa::Type ta, isa::Type tb, uint32_t a, uint32_t b, uint32_t c);
uint32_t dp2a(isa::Type ta, isa::Type tb, bool hi, uint32_t a, uint32_t b, uint32_t c);

// Logic (PTX ISA 9.7.8 "Logic and Shift Instructions"), on the type's
// width; the .pred forms are 1-bit. cnot: 1 if a is 0, else 0.
enum class Logic : uint8_t { and_, or_, xor_ };
uint64_t logic(isa::Type t, Logic op, uint64_t a, uint64_t b);
uint64_t not_(isa::Type t, uint64_t a);
uint64_t cnot(isa::Type t, uint64_t a);
// lop3.b32: bit i of d is bit (a_i*4 + b_i*2 + c_i) of the LUT. Only the
// LUT's low 8 bits count (ptxas takes any integer literal).
uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);

// shl/shr: the amount is an unsigned .u32; amounts above the width clamp to
// the width (shl, shr.b/.u: 0; shr.s: every bit a copy of the sign).
uint64_t shl(isa::Type t, uint64_t a, uint32_t n);
uint64_t shr(isa::Type t, uint64_t a, uint32_t n);
// shf.l / shf.r on the 64-bit {b, a}: .l keeps the high word of
// ({b,a} << n), .r the low word of ({b,a} >> n). .wrap reads n modulo 32,
// .clamp limits it to 32.
enum class Direction : uint8_t { left, right };
uint32_t shf(Direction dir, Bound mode, uint32_t a, uint32_t b, uint32_t n);

// prmt.b32: picks four bytes of {b, a} (bytes 0..3 from a, 4..7 from b).
// The default mode reads one 4-bit selector per byte from c[15:0] (bit 3:
// replicate the picked byte's sign); the modes read c[1:0] only.
enum class Permute : uint8_t { generic, f4e, b4e, rc8, ecl, ecr, rc16 };
uint32_t prmt(Permute mode, uint32_t a, uint32_t b, uint32_t c);

// The carry chain: d and the carry-out of the n-bit addition.
struct CarryOut {
  uint64_t value;
  bool carry;
};
// a + b + carry_in (add.cc: carry_in = 0; addc: CC.CF).
CarryOut add_carry(isa::Type t, uint64_t a, uint64_t b, bool carry_in);
// a + ~b + carry_in (sub.cc: carry_in = 1; subc: CC.CF).
CarryOut sub_carry(isa::Type t, uint64_t a, uint64_t b, bool carry_in);
// part(a*b) + c + carry_in, p = lo or hi (mad.cc: carry_in = 0; madc: CC.CF).
CarryOut mad_carry(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool carry_in);
// addc/subc/madc .sat.s32 (ptxas accepts them; no carry out): the exact
// signed value of the same sum, clamped to the type's range.
uint64_t add_carry_sat(isa::Type t, uint64_t a, uint64_t b, bool carry_in);
uint64_t sub_carry_sat(isa::Type t, uint64_t a, uint64_t b, bool carry_in);
uint64_t mad_carry_sat(isa::Type t, Part p, uint64_t a, uint64_t b, uint64_t c, bool carry_in);

}  // namespace ptxfu::integer
