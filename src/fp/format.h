// Floating-point formats as rows of data. Every operation in the core is
// written once against `Format`; adding a format is one more row: its
// exponent and fraction widths, which special values it encodes
// (`Specials`), and whether the host fast paths may serve it.
#pragma once
#include <cstdint>
#include <string_view>

namespace ptxfu::fp {

using u128 = unsigned __int128;

enum class Rounding : uint8_t { rn, rz, rm, rp };

// Stochastic rounding (PTX cvt .rs): `width` random bits, added as an
// integer to the top `width` bits the rounding drops; the carry out rounds
// away from zero, no carry towards zero. width 0: not stochastic.
struct RandomBits {
  uint32_t value = 0;
  unsigned width = 0;
};

// Which special values a format encodes (E = exponent field, M = fraction).
//   ieee:       IEEE 754 style: E all ones is inf (M = 0) or NaN (M != 0);
//               E = 0 holds zeros and subnormals (f16, bf16, tf32, f32, f64,
//               e5m2).
//   finite_nan: no infinity; the only NaNs are S.1..1.1..1 (both signs); the
//               top exponent holds normals (e4m3: max 448 = S.1111.110).
//   finite:     no infinity, no NaN; every encoding is a number (e2m1,
//               e2m3, e3m2).
//   unsigned_exp_only: no sign bit, no fraction, no zero, no subnormals:
//               E encodes 2^(E - bias) for E = 0 .. 2^n - 2, and E all ones
//               is the NaN (ue8m0: 2^-127 .. 2^127, NaN = 0xff).
// Sources: PTX ISA 9.x, cvt (".e4m3x2/.e5m2x2", ".e2m1x2", ".e2m3x2/.e3m2x2",
// ".ue8m0x2" forms, as reproduced in the ptx-90-parser crate's copy of the
// spec, docs.rs/crate/ptx-90-parser, docs/instructions/cvt.md); CUDA Math API
// __nv_fp8x2_e4m3 ("The encoding doesn't support Infinity. NaNs are limited
// to 0x7F and 0xFF values") and __nv_fp8_e8m0 ("numbers 0 through 254
// represent 2^-127 through 2^127. Number 0xFF = 255 is reserved for NaN");
// OCP Microscaling Formats (MX) Specification v1.0 (2023), section 5: FP6
// E2M3/E3M2 and FP4 E2M1 have no infinity and no NaN (max normal 7.5, 28,
// 6.0), E8M0 has no sign and no zero.
enum class Specials : uint8_t { ieee, finite_nan, finite, unsigned_exp_only };

struct Format {
  std::string_view name;
  int exp_bits;
  int frac_bits;
  Specials specials = Specials::ieee;
  // The row may use the host-arithmetic fast paths (fast_path.h). Only for
  // `ieee` rows; which fast path (host binary32/binary64 arithmetic, or the
  // exact double pair) follows from the widths.
  bool host_fast_path = false;

  [[gnu::always_inline]] constexpr bool has_sign() const { return specials != Specials::unsigned_exp_only; }
  [[gnu::always_inline]] constexpr bool has_inf() const { return specials == Specials::ieee; }
  [[gnu::always_inline]] constexpr bool has_nan() const { return specials != Specials::finite; }
  // Bits of the encoding: sign (if any), exponent, fraction. A row's width
  // is that of its encoding, not of the register that holds it (tf32 is 19
  // bits wide: it lives in the top 19 bits of a 32-bit register).
  [[gnu::always_inline]] constexpr int width() const { return (has_sign() ? 1 : 0) + exp_bits + frac_bits; }
  [[gnu::always_inline]] constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
  // Biased exponent of the smallest normal: 0 where E = 0 is not special.
  [[gnu::always_inline]] constexpr int min_biased() const { return specials == Specials::unsigned_exp_only ? 0 : 1; }
  // Biased exponent of the largest finite values: the all-ones exponent is
  // reserved for inf/NaN in `ieee` and `unsigned_exp_only` rows only.
  [[gnu::always_inline]] constexpr int max_biased() const {
    const int all_ones = (1 << exp_bits) - 1;
    return specials == Specials::ieee || specials == Specials::unsigned_exp_only ? all_ones - 1 : all_ones;
  }
  [[gnu::always_inline]] constexpr int emin() const {
    return min_biased() - bias();
  }  // exponent of the smallest normal
  [[gnu::always_inline]] constexpr int emax() const { return max_biased() - bias(); }  // exponent of the largest finite
  [[gnu::always_inline]] constexpr uint64_t frac_mask() const { return (uint64_t{1} << frac_bits) - 1; }
  [[gnu::always_inline]] constexpr uint64_t exp_mask() const { return ((uint64_t{1} << exp_bits) - 1) << frac_bits; }
  [[gnu::always_inline]] constexpr uint64_t sign_mask() const { return has_sign() ? uint64_t{1} << (width() - 1) : 0; }
  [[gnu::always_inline]] constexpr uint64_t bits_mask() const {
    return width() == 64 ? ~uint64_t{0} : (uint64_t{1} << width()) - 1;
  }
  // Zero of the given sign. unsigned_exp_only rows have no zero: this is
  // their smallest value (encoding 0, 2^-bias), which is what a zero or
  // underflowing result becomes there.
  [[gnu::always_inline]] constexpr uint64_t zero(bool sign) const { return sign ? sign_mask() : 0; }
  // Largest finite magnitude (e4m3: S.1111.110 = 448).
  [[gnu::always_inline]] constexpr uint64_t max_finite(bool sign) const {
    const uint64_t top = (static_cast<uint64_t>(max_biased()) << frac_bits) | frac_mask();
    return zero(sign) | (specials == Specials::finite_nan ? top - 1 : top);
  }
  // The NaN results take: the canonical NaN (sign 0, every other bit set)
  // where NaNs exist. `finite` rows have no NaN; for them this returns
  // +max-finite, a placeholder: what a NaN becomes there is the caller's
  // rule (PTX cvt to e2m1/e2m3/e3m2 always has .satfinite).
  [[gnu::always_inline]] constexpr uint64_t nan() const {
    if (specials == Specials::finite) return max_finite(false);
    return exp_mask() | frac_mask();
  }
  // Infinity; for rows without one, the value an infinite result takes:
  // the NaN where there is one (e4m3, ue8m0), else max-finite (e2m1 family).
  // round_pack's overflow rule follows from this (see round_pack.h).
  [[gnu::always_inline]] constexpr uint64_t inf(bool sign) const {
    switch (specials) {
      case Specials::ieee: return zero(sign) | exp_mask();
      case Specials::finite_nan: return zero(sign) | nan();
      case Specials::finite: return max_finite(sign);
      case Specials::unsigned_exp_only: return nan();
    }
    return zero(sign) | exp_mask();
  }
  [[gnu::always_inline]] constexpr uint64_t one(bool sign) const {
    return zero(sign) | (static_cast<uint64_t>(bias()) << frac_bits);
  }
};

inline constexpr Format kF16{"f16", 5, 10, Specials::ieee, true};
inline constexpr Format kBF16{"bf16", 8, 7, Specials::ieee, true};
inline constexpr Format kF32{"f32", 8, 23, Specials::ieee, true};
inline constexpr Format kF64{"f64", 11, 52, Specials::ieee, true};
// tf32: f32's exponent, 10 fraction bits. As a row it is 19 bits wide
// (bits 18:0); in a register it is an f32 whose low 13 bits are zero, so a
// caller shifts by 13 on the way in and out.
inline constexpr Format kTF32{"tf32", 8, 10, Specials::ieee, true};
// OCP 8-bit floating point (OFP8) and MX element formats.
inline constexpr Format kE4M3{"e4m3", 4, 3, Specials::finite_nan};
inline constexpr Format kE5M2{"e5m2", 5, 2, Specials::ieee, true};
inline constexpr Format kE2M3{"e2m3", 2, 3, Specials::finite};
inline constexpr Format kE3M2{"e3m2", 3, 2, Specials::finite};
inline constexpr Format kE2M1{"e2m1", 2, 1, Specials::finite};
inline constexpr Format kUE8M0{"ue8m0", 8, 0, Specials::unsigned_exp_only};

// The format table: every row above, once. Whatever lists the formats (the
// library API, ptxfu.formats in Python) reads it.
inline constexpr const Format* kFormatTable[] = {&kF16,  &kBF16, &kF32,  &kF64,  &kTF32, &kE4M3,
                                                 &kE5M2, &kE2M3, &kE3M2, &kE2M1, &kUE8M0};

enum class Class : uint8_t { zero, subnormal, normal, inf, nan };

// A finite value is (-1)^sign * sig * 2^exp with the implicit bit included
// for normals. For zero, inf and nan only `sign` (and `sig` = fraction for
// nan) is meaningful.
struct Unpacked {
  bool sign;
  Class cls;
  int exp;
  uint64_t sig;
};

[[gnu::always_inline]] constexpr bool is_nan(const Format& f, uint64_t bits) {
  if (f.specials == Specials::ieee) return (bits & f.exp_mask()) == f.exp_mask() && (bits & f.frac_mask()) != 0;
  if (f.specials == Specials::finite) return false;
  return (bits & ~f.sign_mask()) == (f.exp_mask() | f.frac_mask());  // e4m3, ue8m0
}

[[gnu::always_inline]] constexpr Unpacked unpack(const Format& f, uint64_t bits) {
  const bool sign = (bits & f.sign_mask()) != 0;
  const uint64_t biased = (bits & f.exp_mask()) >> f.frac_bits;
  const uint64_t frac = bits & f.frac_mask();
  if (biased == (uint64_t{1} << f.exp_bits) - 1) {  // the all-ones exponent
    switch (f.specials) {
      case Specials::ieee: return {sign, frac ? Class::nan : Class::inf, 0, frac};
      case Specials::finite_nan:
        if (frac == f.frac_mask()) return {sign, Class::nan, 0, frac};
        break;  // a normal
      case Specials::finite: break;
      case Specials::unsigned_exp_only: return {false, Class::nan, 0, 0};
    }
  } else if (biased == 0 && f.min_biased() == 1) {
    if (frac == 0) return {sign, Class::zero, 0, 0};
    return {sign, Class::subnormal, f.emin() - f.frac_bits, frac};
  }
  return {sign, Class::normal, static_cast<int>(biased) - f.bias() - f.frac_bits, frac | (uint64_t{1} << f.frac_bits)};
}

[[gnu::always_inline]] constexpr Class classify(const Format& f, uint64_t bits) { return unpack(f, bits).cls; }
[[gnu::always_inline]] constexpr bool is_subnormal(const Format& f, uint64_t bits) {
  return f.min_biased() == 1 && (bits & f.exp_mask()) == 0 && (bits & f.frac_mask()) != 0;
}

}  // namespace ptxfu::fp

// THE rounding step (round_pack), defined inline for 64- and 128-bit
// significands.
#include "fp/round_pack.h"
