// fuzz_eval_diff's reference for cvt, from the PTX ISA's cvt definitions:
// float results are one MPFR rounding of the exact source value (a NaN is
// the canonical NaN), integer results come from host 128-bit arithmetic,
// float to integer rounds with the C library (rint trunc floor ceil, exact on
// doubles), then saturates, NaN giving 0.
#include <cmath>
#include <cstdlib>

#include "eval_diff_ref.h"
#include "oracle/mpfr_oracle.h"

namespace ptxfu::fuzz {
namespace {

using namespace ptxfu::isa;
namespace orc = ptxfu::oracle;

bool ieee_spec(Type t, orc::Spec& s) {
  switch (t) {
    case Type::f16: s = orc::kF16; return true;
    case Type::bf16: s = orc::kBF16; return true;
    case Type::f32: s = orc::kF32; return true;
    case Type::f64: s = orc::kF64; return true;
    default: return false;
  }
}

bool integer_type(Type t) {
  const TypeClass c = info(t).cls;
  return c == TypeClass::signed_int || c == TypeClass::unsigned_int || c == TypeClass::bits;
}
bool is_signed(Type t) { return info(t).cls == TypeClass::signed_int; }
unsigned width(Type t) { return info(t).bits; }

constexpr ModSet kIeeeRounding = bit(Mod::rn) | bit(Mod::rz) | bit(Mod::rm) | bit(Mod::rp);
constexpr ModSet kIntegral = bit(Mod::rni) | bit(Mod::rzi) | bit(Mod::rmi) | bit(Mod::rpi);

orc::Rnd rounding(const Instr& in) {
  if (in.has(Mod::rz)) return orc::Rnd::rz;
  if (in.has(Mod::rm)) return orc::Rnd::rm;
  if (in.has(Mod::rp)) return orc::Rnd::rp;
  return orc::Rnd::rn;
}

// rni rzi rmi rpi on an exact value.
double integral(const Instr& in, double v) {
  if (in.has(Mod::rzi)) return std::trunc(v);
  if (in.has(Mod::rmi)) return std::floor(v);
  if (in.has(Mod::rpi)) return std::ceil(v);
  return std::nearbyint(v);  // the default environment: ties to even
}

// An integer result of n bits in eval's register: 8-bit results sit in 16
// bits, sign-extended for .s8.
std::string int_result(Type t, uint64_t n_bit_pattern) {
  const unsigned n = width(t);
  const unsigned reg = n < 16 ? 16 : n;
  return hex(pattern(value_of(n_bit_pattern, n, is_signed(t) && n < 16), reg), reg);
}

uint64_t float_to_int(double v, unsigned n, bool sgn) {
  if (std::isnan(v)) return 0;
  const double top = std::ldexp(1.0, static_cast<int>(sgn ? n - 1 : n));  // the first value out of range
  const double bottom = sgn ? -top : 0.0;
  if (v >= top) return clamp(sgn ? (s128{1} << (n - 1)) - 1 : (s128{1} << n) - 1, n, sgn);
  if (v <= bottom) return pattern(sgn ? -(s128{1} << (n - 1)) : 0, n);
  return pattern(static_cast<s128>(v), n);  // integral and in range: exact
}

// An integer's value rounded once: v = hi * 2^32 + lo with both parts exact
// doubles, so MPFR's one rounding of their sum is the conversion.
uint64_t int_to_float(const orc::Spec& out, orc::Rnd r, s128 v) {
  s128 hi = v / (s128{1} << 32);
  s128 lo = v - hi * (s128{1} << 32);
  if (lo < 0) {
    lo += s128{1} << 32;
    hi -= 1;
  }
  return orc::add(out, r, std::ldexp(static_cast<double>(hi), 32), static_cast<double>(lo));
}

}  // namespace

bool cvt_covered(const Instr& in) {
  if (in.op != Op::cvt) return false;
  orc::Spec d, s;
  const bool fd = ieee_spec(in.type, d), fs = ieee_spec(in.type2, s);
  const bool id = integer_type(in.type), is = integer_type(in.type2);
  const ModSet mods = in.mods;
  if (id && is) return (mods & ~bit(Mod::sat)) == 0;
  if (id && fs) return (mods & ~(kIntegral | bit(Mod::sat))) == 0;
  if (fd && is) return (mods & ~kIeeeRounding) == 0;
  if (fd && fs) return (mods & ~(kIeeeRounding | kIntegral)) == 0;
  // the packs of two f32
  if ((in.type == Type::f16x2 || in.type == Type::bf16x2) && in.type2 == Type::f32) return mods == bit(Mod::rn);
  return false;
}

std::string cvt_reference(const Instr& in, const uint64_t* src) {
  orc::Spec d{}, s{};
  const bool fd = ieee_spec(in.type, d), fs = ieee_spec(in.type2, s);
  if (!fd && !fs && integer_type(in.type)) {  // integer to integer
    const s128 v = value_of(src[0], width(in.type2), is_signed(in.type2));
    const unsigned n = width(in.type);
    return int_result(in.type, in.has(Mod::sat) ? clamp(v, n, is_signed(in.type)) : pattern(v, n));
  }
  if (!fd && fs && integer_type(in.type)) {  // float to integer
    const double v = integral(in, orc::decode(s, src[0]));
    return int_result(in.type, float_to_int(v, width(in.type), is_signed(in.type)));
  }
  if (fd && !fs) {  // integer to float
    const s128 v = value_of(src[0], width(in.type2), is_signed(in.type2));
    return hex(int_to_float(d, rounding(in), v), width(in.type));
  }
  if (fd) {  // float to float
    const double v = orc::decode(s, src[0]);
    if (in.mods & kIntegral) return hex(orc::encode(d, integral(in, v)), width(in.type));
    return hex(orc::mul(d, rounding(in), v, 1.0), width(in.type));  // v * 1 keeps the sign of zero
  }
  // f16x2/bf16x2 from two f32: the first source in the upper half
  const orc::Spec lane = in.type == Type::f16x2 ? orc::kF16 : orc::kBF16;
  const uint64_t upper = orc::mul(lane, orc::Rnd::rn, orc::decode(orc::kF32, src[0]), 1.0);
  const uint64_t lower = orc::mul(lane, orc::Rnd::rn, orc::decode(orc::kF32, src[1]), 1.0);
  return hex(upper << 16 | lower, 32);
}

}  // namespace ptxfu::fuzz
