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
//    (`pair_exact`: f16, bf16, tf32, f32, fp8), every operand converts to
//    double exactly and the product of two operands (2p <= 52 bits) is exact
//    in double. The sum x + y of two such doubles is represented exactly by
//    TwoSum (Knuth): s = RN(x + y), t = (x + y) - s, |t| <= ulp(s)/2, valid
//    in round-to-nearest without overflow (|x + y| < 2^300 here). Hence the
//    exact result of add, mul and fma is s + t. With s = (-1)^S * M * 2^E
//    (53-bit M) that value is (M + u) * 2^E with u = t/2^E in (-1/2, 1/2):
//    for u > 0 (t has S's sign) round_pack(S, E, M, sticky=1); for u < 0,
//    round_pack(S, E, M - 1, sticky=1), since M - 1 + (1 + u) with
//    0 < 1 + u < 1. One rounding, by round_pack, in any mode. Exact zero
//    sums follow the host's round-to-nearest sign rule, which equals IEEE's
//    for every mode but rm; rm zeros take the generic path.
// 2. Host fma/add/mul in round-to-nearest for the formats the host has
//    (binary32, binary64): IEEE 754 requires the correctly rounded result,
//    with subnormals; only the NaN bits differ, and apply_policy replaces
//    every NaN result.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "fp/format.h"

namespace ptxfu::fp::fast {

inline uint64_t bits_of(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline double double_of(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
inline uint32_t bits_of(float d) {
  uint32_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline float float_of(uint32_t u) {
  float d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

constexpr bool pair_exact(const Format& f) {
  return f.frac_bits + 1 <= 26 && 2 * (f.emin() - f.frac_bits) >= -1022 &&
         2 * (f.emax() + 1) + 2 <= 1023;
}
constexpr bool is_f32(const Format& f) { return f.exp_bits == 8 && f.frac_bits == 23; }
constexpr bool is_f64(const Format& f) { return f.exp_bits == 11 && f.frac_bits == 52; }

// Not NaN or infinity.
inline bool finite(const Format& f, uint64_t x) { return (x & f.exp_mask()) != f.exp_mask(); }

// Exact conversion of a finite value of a `pair_exact` format to double.
inline double to_double(const Format& f, uint64_t x) {
  const uint64_t sign = (x >> (f.width() - 1)) & 1;
  int e = static_cast<int>((x & f.exp_mask()) >> f.frac_bits);
  uint64_t m = x & f.frac_mask();
  if (e == 0) {
    if (m == 0) return double_of(sign << 63);
    const int sh = __builtin_clzll(m) - (63 - f.frac_bits);  // moves the msb to bit frac_bits
    m = (m << sh) & f.frac_mask();
    e = 1 - sh;
  }
  return double_of((sign << 63) | (static_cast<uint64_t>(e - f.bias() + 1023) << 52) |
                   (m << (52 - f.frac_bits)));
}

// Rounds the exact value s + t (TwoSum pair, s a nonzero normal double) to `f`.
inline uint64_t round_pair(const Format& f, double s, double t, Rounding rnd) {
  const uint64_t b = bits_of(s);
  const bool sign = (b >> 63) != 0;
  const int e = static_cast<int>((b >> 52) & 0x7ff) - 1075;
  uint64_t m = (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  const bool sticky = t != 0;
  if (sticky && (t < 0) != sign) --m;
  return round_pack(f, sign, e, m, sticky, rnd);
}

inline void two_sum(double x, double y, double& s, double& t) {
  s = x + y;
  const double yy = s - x;
  t = (x - (s - yy)) + (y - yy);
}

// Each returns true and sets `out` when it could decide the result.
inline bool pair_add(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  if (!finite(f, a) || !finite(f, b)) return false;
  double s, t;
  two_sum(to_double(f, a), to_double(f, b), s, t);
  if (s == 0) {
    if (rnd == Rounding::rm) return false;
    out = f.zero(std::signbit(s));
    return true;
  }
  out = round_pair(f, s, t, rnd);
  return true;
}

inline bool pair_mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd, uint64_t& out) {
  if (!finite(f, a) || !finite(f, b)) return false;
  const double p = to_double(f, a) * to_double(f, b);  // exact
  if (p == 0) {
    out = f.zero(std::signbit(p));
    return true;
  }
  out = round_pair(f, p, 0.0, rnd);
  return true;
}

inline bool pair_fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd,
                     uint64_t& out) {
  if (!finite(f, a) || !finite(f, b) || !finite(f, c)) return false;
  double s, t;
  two_sum(to_double(f, a) * to_double(f, b), to_double(f, c), s, t);
  if (s == 0) {
    if (rnd == Rounding::rm) return false;
    out = f.zero(std::signbit(s));
    return true;
  }
  out = round_pair(f, s, t, rnd);
  return true;
}

}  // namespace ptxfu::fp::fast
