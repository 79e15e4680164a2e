// The references of fuzz_eval_diff, in host arithmetic written from the PTX
// ISA's definitions and sharing nothing with src/ beyond the decoded form's
// names (Op, Type, Mod, Cmp). Each *_reference returns the line `ptxfu eval`
// must print for the form and sources (without the newline).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

#include "isa/table.h"

namespace ptxfu::fuzz {

using u128 = unsigned __int128;
using s128 = __int128;

inline u128 mask_of(unsigned n) { return n >= 128 ? ~u128{0} : (u128{1} << n) - 1; }
// The number an n-bit pattern means.
inline s128 value_of(uint64_t bits, unsigned n, bool sgn) {
  const s128 v = static_cast<s128>(u128{bits} & mask_of(n));
  return sgn && (v >> (n - 1)) ? v - (s128{1} << n) : v;
}
// The low n bits of v's two's complement.
inline uint64_t pattern(s128 v, unsigned n) { return static_cast<uint64_t>(static_cast<u128>(v) & mask_of(n)); }
// v clamped to the n-bit range, as a pattern.
inline uint64_t clamp(s128 v, unsigned n, bool sgn) {
  const s128 lo = sgn ? -(s128{1} << (n - 1)) : 0;
  const s128 hi = sgn ? (s128{1} << (n - 1)) - 1 : (s128{1} << n) - 1;
  return pattern(v < lo ? lo : v > hi ? hi : v, n);
}

inline std::string hex(uint64_t v, unsigned bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>((bits + 3) / 4), static_cast<unsigned long long>(v));
  return buf;
}

// setp set slct (no .ftz), lop3 (with and without a BoolOp), shf, prmt.
bool alu_covered(const isa::Instr& in);
std::string alu_reference(const isa::Instr& in, const uint64_t* src);

// cvt between integers (.sat), float to integer (.rni .rzi .rmi .rpi),
// integer to float and float to float (.rn .rz .rm .rp or exact), integral
// rounding within a format, and the f16x2/bf16x2 packs of two f32 (.rn):
// on the IEEE formats f16 bf16 f32 f64 and every integer type; no .ftz
// .sat(float) .relu .satfinite.
bool cvt_covered(const isa::Instr& in);
std::string cvt_reference(const isa::Instr& in, const uint64_t* src);

}  // namespace ptxfu::fuzz
