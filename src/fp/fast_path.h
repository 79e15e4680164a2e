// Fast paths on host IEEE 754 binary64/binary32 arithmetic. They return the
// same bits as the generic operations; the proofs are below, and the unit
// tests compare both paths (and both against MPFR).
//
// Assumptions about the host, checked by the tests: binary32/binary64
// arithmetic is IEEE 754 with round-to-nearest-even and gradual underflow
// (x86-64 SSE2 in its default environment: no FTZ/DAZ, no -ffast-math,
// no FP contraction: fast_path users are compiled with -ffp-contract=off).
//
// 1. Exact double pairs. For a format with p = frac_bits + 1 <= 26 whose
//    exponent range keeps products inside the normal binary64 range
//    (`pair_exact`: f16, bf16, tf32, f32, e5m2 rows), every operand converts
//    to double exactly and the product of two operands (2p <= 52 bits) is
//    exact in double. The sum x + y of two such doubles is represented
//    exactly by TwoSum (Knuth): s = RN(x + y), t = (x + y) - s,
//    |t| <= ulp(s)/2, valid in round-to-nearest without overflow
//    (|x + y| < 2^300 here). Hence add, mul and fma have the exact result
//    s + t, which `round_sum` rounds once (proof at round_sum) through
//    fp::round_pack, the one rounding step.
// 2. Host fma/add/mul in round-to-nearest for the formats the host has
//    (binary32, binary64): IEEE 754 requires the correctly rounded result,
//    with subnormals; only the NaN bits differ, and apply_policy replaces
//    every NaN result.
// A row opts in with its `host_fast_path` column (format.h); the dispatchers
// below read that column and the row's widths, never a list of formats.
// Only `ieee` rows may opt in: the special-value tests here (`any_special`)
// and the exactness arguments assume IEEE encodings.
#pragma once
#include <cassert>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "fp/format.h"

namespace ptxfu::fp::fast {

[[gnu::always_inline]] inline uint64_t bits_of(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
[[gnu::always_inline]] inline double double_of(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
[[gnu::always_inline]] inline uint32_t bits_of(float d) {
  uint32_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
[[gnu::always_inline]] inline float float_of(uint32_t u) {
  float d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

[[gnu::always_inline]] constexpr bool pair_exact(const Format& f) {
  return f.frac_bits + 1 <= 26 && 2 * (f.emin() - f.frac_bits) >= -1022 && 2 * (f.emax() + 1) + 2 <= 1023;
}

// Exact conversion of a finite value of a `pair_exact` format to double,
// branch-free: the magnitude bits shifted into binary64's layout form the
// double value * 2^(bias - 1023) (a binary64 subnormal when the value is
// subnormal, since exp_bits < 11), and the power-of-two scaling is exact.
[[gnu::always_inline]] inline double to_double(const Format& f, uint64_t x) {
  if (f.exp_bits == 8 && f.width() <= 32) {
    // Rows with binary32's exponent (bf16, tf32 in their own width): the
    // bits shifted to the top of a binary32 are that binary32 value.
    return static_cast<double>(float_of(static_cast<uint32_t>(x << (32 - f.width()))));
  }
  const double scaled = double_of((x & ~f.sign_mask()) << (52 - f.frac_bits));
  const double v = scaled * double_of(static_cast<uint64_t>(2 * 1023 - f.bias()) << 52);
  return double_of(bits_of(v) | ((x & f.sign_mask()) << (63 - (f.width() - 1))));
}

// Rounds the exact value x + y = s + t (TwoSum pair: s = RN(x + y),
// |t| <= ulp(s)/2) to `f`.
//  0. s = 0 means x + y = 0 exactly: the host's round-to-nearest sign is
//     IEEE's for rn, rz, rp; for rm the sum of zeros is -0 unless both x and
//     y are +0 (IEEE 754 section 6.3).
//  1. Round x + y to odd at binary64 precision: s when t = 0 or s's last bit
//     is 1, else the neighbour of s towards x + y (bits of s +- 1; at a power
//     of two going down, bits - 1 is the largest double below it, as
//     required). For any target precision p <= 51 and any rounding
//     direction, rounding that odd-rounded value gives the same result as
//     rounding x + y (the round-to-odd property, Boldo & Melquiond 2008).
//  2. Hand the odd-rounded double's 53-bit significand and exponent to
//     fp::round_pack. It is a normal double: every nonzero sum of products
//     of `pair_exact` values is a multiple of 2^(2 (emin - frac_bits)) >=
//     2^-1022 (the neighbour taken in step 1 stays above 2^-1022 because
//     x + y, a multiple of that quantum, does).
[[gnu::always_inline]] inline uint64_t round_sum(const Format& f, double x, double y, double s, double t,
                                                 Rounding rnd) {
  uint64_t b = bits_of(s);
  const uint64_t tb = bits_of(t);
  const uint64_t inexact = (tb << 1) != 0;
  const uint64_t toward = ((tb ^ b) >> 63) == 0 ? 1 : ~uint64_t{0};  // +1 or -1
  b += toward & (0 - (inexact & ~b & 1));
  const bool sign = (b >> 63) != 0;
  const uint64_t mag = b & ~(uint64_t{1} << 63);
  if (__builtin_expect(mag == 0, 0)) {
    if (rnd == Rounding::rm) return f.zero((bits_of(x) | bits_of(y)) != 0);
    return f.zero(sign);
  }
  assert((mag >> 52) != 0);  // normal (step 2)
  const uint64_t sig = (mag & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  if ((sig >> 52) != 1) __builtin_unreachable();  // lets round_pack fold its shifts
  return round_pack(f, sign, static_cast<int>(mag >> 52) - 1075, sig, false, rnd);
}

[[gnu::always_inline]] inline void two_sum(double x, double y, double& s, double& t) {
  s = x + y;
  const double yy = s - x;
  t = (x - (s - yy)) + (y - yy);
}

[[gnu::always_inline]] inline bool any_special(const Format& f, uint64_t a, uint64_t b, uint64_t c = 0) {
  const uint64_t m = f.exp_mask();
  return ((a & m) == m) | ((b & m) == m) | ((c & m) == m);
}

// Each returns true and sets `out` when it could decide the result (all
// operands finite).
[[gnu::always_inline]] inline bool pair_add(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  if (any_special(f, a, b)) return false;
  const double x = to_double(f, a), y = to_double(f, b);
  double s, t;
  two_sum(x, y, s, t);
  out = round_sum(f, x, y, s, t, rnd);
  return true;
}

[[gnu::always_inline]] inline bool pair_mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  if (any_special(f, a, b)) return false;
  const double p = to_double(f, a) * to_double(f, b);  // exact
  out = round_sum(f, p, 0.0, p, 0.0, rnd);
  return true;
}

[[gnu::always_inline]] inline bool pair_fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd,
                                            uint64_t& out) {
  if (any_special(f, a, b, c)) return false;
  const double p = to_double(f, a) * to_double(f, b);  // exact
  const double z = to_double(f, c);
  double s, t;
  two_sum(p, z, s, t);
  out = round_sum(f, p, z, s, t, rnd);
  return true;
}

// The fast paths need the host's default floating-point environment:
// round-to-nearest, no flush-to-zero, no denormals-are-zero. On x86 that is
// MXCSR control bits 0x1f80 (the low six bits are sticky exception flags).
// This is a precondition of the whole core (nothing in ptxfu changes the
// environment): it is asserted in debug builds and by the unit tests, not
// re-read on every call, because STMXCSR would cost ~40% of the f32 path.
[[gnu::always_inline]] inline bool host_env_default() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned csr;
  __asm__ volatile("stmxcsr %0" : "=m"(csr));
  return (csr & 0xffc0u) == 0x1f80u;
#else
  return std::fegetround() == FE_TONEAREST;
#endif
}

[[gnu::always_inline]] constexpr bool same(const Format& f, const Format& g) {
  return f.exp_bits == g.exp_bits && f.frac_bits == g.frac_bits && f.specials == g.specials &&
         f.host_fast_path == g.host_fast_path;
}

// The row may use a fast path at all (its column, on an IEEE row).
[[gnu::always_inline]] constexpr bool opted_in(const Format& f) {
  return f.host_fast_path && f.specials == Specials::ieee;
}
// The row is the host's binary32 / binary64 (native add, mul, fma in rn).
[[gnu::always_inline]] constexpr bool host_binary32(const Format& f) { return f.exp_bits == 8 && f.frac_bits == 23; }
[[gnu::always_inline]] constexpr bool host_binary64(const Format& f) { return f.exp_bits == 11 && f.frac_bits == 52; }

// Dispatchers: true when a fast path decided `out`. They read the row's
// columns only; calls with a constant row (by_format below) fold them.
[[gnu::always_inline]] inline bool try_add(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  assert(host_env_default());
  if (!opted_in(f)) return false;
  if (host_binary32(f) && rnd == Rounding::rn) {
    out = bits_of(float_of(static_cast<uint32_t>(a)) + float_of(static_cast<uint32_t>(b)));
    return true;
  }
  if (host_binary64(f)) {
    if (rnd != Rounding::rn) return false;
    out = bits_of(double_of(a) + double_of(b));
    return true;
  }
  return pair_exact(f) && pair_add(f, a, b, rnd, out);
}

[[gnu::always_inline]] inline bool try_mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  assert(host_env_default());
  if (!opted_in(f)) return false;
  if (host_binary32(f) && rnd == Rounding::rn) {
    out = bits_of(float_of(static_cast<uint32_t>(a)) * float_of(static_cast<uint32_t>(b)));
    return true;
  }
  if (host_binary64(f)) {
    if (rnd != Rounding::rn) return false;
    out = bits_of(double_of(a) * double_of(b));
    return true;
  }
  return pair_exact(f) && pair_mul(f, a, b, rnd, out);
}

[[gnu::always_inline]] inline bool try_fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd,
                                           uint64_t& out) {
  assert(host_env_default());
  if (!opted_in(f)) return false;
  if (host_binary32(f) && rnd == Rounding::rn) {
    out = bits_of(std::fma(float_of(static_cast<uint32_t>(a)), float_of(static_cast<uint32_t>(b)),
                           float_of(static_cast<uint32_t>(c))));
    return true;
  }
  if (host_binary64(f)) {
    if (rnd != Rounding::rn) return false;
    out = bits_of(std::fma(double_of(a), double_of(b), double_of(c)));
    return true;
  }
  return pair_exact(f) && pair_fma(f, a, b, c, rnd, out);
}

// Calls body(mode) with `rnd` as a constant, so that inlined code folds the
// rounding switches.
template <class Body>
[[gnu::always_inline]] inline uint64_t by_rounding(Rounding rnd, Body&& body) {
  switch (rnd) {
    case Rounding::rn: return body(Rounding::rn);
    case Rounding::rz: return body(Rounding::rz);
    case Rounding::rm: return body(Rounding::rm);
    case Rounding::rp: return body(Rounding::rp);
  }
  return body(rnd);
}

// Calls body(row) with the constant row equal to `f` (kF16, kBF16, kF32,
// kF64), or with `f` itself for other rows, so that inlined code folds every
// format constant (masks, shifts, bias). A performance list only (the
// hottest rows, each one more compare for the rows after it): what a row
// computes and which fast path it takes come from its columns alone.
template <class Body>
[[gnu::always_inline]] inline uint64_t by_format(const Format& f, Body&& body) {
  if (same(f, kF16)) return body(kF16);
  if (same(f, kBF16)) return body(kBF16);
  if (same(f, kF32)) return body(kF32);
  if (same(f, kF64)) return body(kF64);
  return body(f);
}

}  // namespace ptxfu::fp::fast
