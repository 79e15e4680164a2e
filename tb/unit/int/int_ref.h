// The oracle for the integer suites: exact arithmetic in 128-bit host
// integers, written out plainly and independently of src/int.
#pragma once
#include <cstdint>

#include "int_harness.h"

namespace ptxfu::inttest::ref {

using u128 = unsigned __int128;
using s128 = __int128;

inline s128 pow2(int n) { return s128{1} << n; }

// The number an n-bit pattern stands for (n <= 64).
inline s128 num(uint64_t bits, int n, bool sgn) {
  const s128 v = static_cast<s128>(bits & mask(n));
  if (sgn && v >= pow2(n - 1)) return v - pow2(n);
  return v;
}

// v modulo 2^n as an n-bit pattern (n <= 64).
inline uint64_t modn(s128 v, int n) {
  s128 r = v % pow2(n);
  if (r < 0) r += pow2(n);
  return static_cast<uint64_t>(r);
}

inline s128 lowest(int n, bool sgn) { return sgn ? -pow2(n - 1) : 0; }
inline s128 highest(int n, bool sgn) { return sgn ? pow2(n - 1) - 1 : pow2(n) - 1; }

// v limited to the n-bit range, as a pattern.
inline uint64_t saturate(s128 v, int n, bool sgn) {
  if (v < lowest(n, sgn)) v = lowest(n, sgn);
  if (v > highest(n, sgn)) v = highest(n, sgn);
  return modn(v, n);
}

// floor(v / 2^n), without relying on the sign behaviour of >>.
inline s128 floor_div_pow2(s128 v, int n) {
  s128 q = v / pow2(n);
  if (v % pow2(n) != 0 && v < 0) q -= 1;
  return q;
}

// The exact 2n-bit product of two n-bit operands, split in halves.
struct Product {
  uint64_t lo, hi;
};

inline Product product(uint64_t a, uint64_t b, int n, bool sgn) {
  if (sgn) {
    const s128 p = num(a, n, true) * num(b, n, true);  // |p| <= 2^126
    return {modn(p, n), modn(floor_div_pow2(p, n), n)};
  }
  const u128 p = static_cast<u128>(a & mask(n)) * (b & mask(n));
  return {static_cast<uint64_t>(p) & mask(n), static_cast<uint64_t>(p >> n) & mask(n)};
}

// Applies a lane reference to every lane of a (possibly x2) operand pair.
template <class F>
uint64_t lanewise(Type t, uint64_t a, uint64_t b, F f) {
  const int n = lane_width(t);
  uint64_t d = 0;
  for (int i = 0; i < lane_count(t); ++i)
    d |= (f((a >> (i * n)) & mask(n), (b >> (i * n)) & mask(n)) & mask(n)) << (i * n);
  return d;
}

}  // namespace ptxfu::inttest::ref
