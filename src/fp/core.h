// Internal helpers shared by the operation files (not part of the API).
#pragma once
#include <cstdint>

#include "fp/format.h"

namespace ptxfu::fp::detail {

// Exact value of a sum of two nonzero finite terms
//   (-1)^s1 * m1 * 2^e1 + (-1)^s2 * m2 * 2^e2,   m1, m2 < 2^120,
// rounded once to `f` (via round_pack). An exact zero sum is +0, or -0
// under rm (IEEE 754 section 6.3).
uint64_t add_terms(const Format& f, bool s1, int e1, u128 m1, bool s2, int e2, u128 m2, Rounding rnd);

inline int msb(u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<uint64_t>(v));
}

inline uint64_t exact_zero_sum(const Format& f, bool sa, bool sb, Rounding rnd) {
  if (sa == sb) return f.zero(sa);
  return f.zero(rnd == Rounding::rm);
}

inline uint64_t default_nan(const Format& f) { return f.nan(); }

}  // namespace ptxfu::fp::detail
