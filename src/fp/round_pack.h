// THE rounding step: every operation of every format ends here, the
// generic paths with 128-bit significands, the fast paths (fast_path.h) and
// the approximations (src/approx) with 64-bit ones. Defined inline so that
// calls with a constant row and rounding mode specialise.
#pragma once
#include <cstdint>
#include <type_traits>

#include "fp/format.h"

namespace ptxfu::fp {
namespace detail {

[[gnu::always_inline]] inline int msb_index(uint64_t v) { return 63 - __builtin_clzll(v); }
[[gnu::always_inline]] inline int msb_index(u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<uint64_t>(v));
}

}  // namespace detail

// Rounds the exact value (-1)^sign * (sig + t) * 2^exp, where 0 <= t < 1 and
// t > 0 exactly when `sticky`, to format `f` under `rnd`, with gradual
// underflow (subnormals). Precondition: sig != 0 if sticky. A zero result
// keeps `sign`; the caller decides exact-zero signs. `Sig` is uint64_t or
// u128; both give the same bits for the same value.
//
// Results the format cannot encode, by its `Specials` column:
//  - Overflow: where IEEE 754 gives infinity (rn always; rm for negative,
//    rp for positive values) the result is f.inf(sign), which for rows
//    without infinity is their NaN if they have one (e4m3: S.1111.111,
//    ue8m0: 0xff) and max-finite otherwise (e2m1, e2m3, e3m2); the other
//    directions give max-finite, as in IEEE. PTX's .satfinite (applied by the
//    caller, not here) clamps every such result to max-finite instead.
//  - e4m3: a magnitude that rounds above 448 (to 480 = S.1111.111, the NaN
//    encoding) overflows.
//  - ue8m0 (no sign, no zero): a negative nonzero value gives the NaN; zero
//    and results that underflow give the smallest value 2^-127 (encoding 0).
//
// With `rs.width` > 0 the rounding is stochastic and `rnd` is not read: the
// random bits are added to the top rs.width dropped bits (below them
// nothing counts), and the carry out rounds the magnitude up (away from
// zero), its absence truncates. A value beyond the largest finite one
// overflows as IEEE's rounding in that direction does: to infinity when the
// bits dropped at the value's own precision carry, else to max-finite.
// The caller passes every bit of its source in `sig` (sticky false).
template <typename Sig>
[[gnu::always_inline]] inline uint64_t round_pack(const Format& f, bool sign, int exp, Sig sig, bool sticky,
                                                  Rounding rnd, RandomBits rs = {}) {
  static_assert(std::is_same_v<Sig, uint64_t> || std::is_same_v<Sig, u128>, "64- or 128-bit significands");
  constexpr int kBits = sizeof(Sig) * 8;
  // .rs: whether the random bits, added to the top rs.width of the `drop`
  // low bits of sig (padded with zeros below when fewer), carry out. The
  // bits under the top rs.width cannot: their sum with nothing stays below one.
  const auto stochastic_carry = [&](int drop) {
    if (drop <= 0) return false;
    const int w = static_cast<int>(rs.width < 32 ? rs.width : 32);  // PTX gives 8, 13 or 16
    const Sig top = drop >= w ? (drop - w >= kBits ? Sig{0} : (sig >> (drop - w)) & ((Sig{1} << w) - 1))
                              : (sig & ((Sig{1} << drop) - 1)) << (w - drop);
    return top + rs.value >= (Sig{1} << w);
  };
  // Rounding away from zero gives the IEEE infinity on overflow.
  bool away = rnd == Rounding::rn || (rnd == Rounding::rm && sign) || (rnd == Rounding::rp && !sign);
  if (!f.has_sign() && sign && sig != 0) return f.nan();
  if (sig == 0) return f.zero(sign);
  int msb = detail::msb_index(sig);
  if (msb == kBits - 1) {          // keep a spare top bit for the increment below
    sig = (sig >> 1) | (sig & 1);  // the lost bit stays as a sticky bit (below the guard: shift >= 2)
    ++exp;
    --msb;
  }
  const int top = exp + msb;  // exponent of the leading bit
  // The result is assembled as exponent field + significand with its leading
  // bit, so that a carry out of the significand (rounding up 1.11..1)
  // increments the exponent, a subnormal that rounds up to 2^emin becomes
  // the smallest normal, and rounding up from the largest finite value
  // gives the next encoding: the infinity of an IEEE row, the NaN of e4m3
  // and ue8m0 (their overflow results). `base` is the biased exponent minus
  // one (ue8m0 at 2^-127 has base -1: the unsigned sum below wraps to 0).
  //
  // Bits dropped: the format keeps frac_bits + 1 bits from the leading one,
  // but none below the subnormal quantum 2^(emin - frac_bits). Written so
  // that a caller whose significand has a known leading bit (round_sum)
  // gets constant shifts on the normal path.
  int shift = msb - f.frac_bits;
  uint64_t base = static_cast<uint64_t>(top + f.bias() - 1);
  if (__builtin_expect(static_cast<unsigned>(top - f.emin()) > static_cast<unsigned>(f.emax() - f.emin()), 0)) {
    if (top > f.emax()) {
      if (rs.width) away = stochastic_carry(msb - f.frac_bits);
      return away ? f.inf(sign) : f.max_finite(sign);
    }
    if (f.min_biased() == 0) return f.zero(sign);  // no subnormals and no zero (ue8m0): the smallest value
    shift = f.emin() - f.frac_bits - exp;
    base = 0;
  }
  const uint64_t s = sign;
  uint64_t mant;  // the kept bits, rounded
  if (shift <= 0) {
    // Nothing dropped; `sticky` lies below every kept bit.
    mant = static_cast<uint64_t>(sig) << -shift;
    if (rnd == Rounding::rm) mant += s & sticky;
    if (rnd == Rounding::rp) mant += (s ^ 1) & sticky;
  } else {
    if (rs.width) away = stochastic_carry(shift);  // before the far-below case folds sig
    if (__builtin_expect(shift >= kBits, 0)) {
      // Far below the kept bits. shift == kBits: halve, keeping the lost
      // bit as a sticky bit below the guard; beyond: the value is nonzero
      // and below half an ulp, as 1 is at kBits - 1.
      sig = shift == kBits ? (sig >> 1) | (sig & 1) : Sig{1};
      shift = kBits - 1;
    }
    // Round by adding an increment to the significand: it carries into the
    // kept bits exactly when the mode rounds up. With h = 2^(shift-1) (the
    // guard bit's weight) and the exact dropped value low + t (low: the
    // dropped bits; t in [0, 1), t > 0 iff sticky):
    //   rn: h - 1 + (odd | sticky) carries iff low > h, or low = h and the
    //       kept bits are odd or t > 0 (ties to even);
    //   away from zero (rm negative, rp positive): 2h - 1 + sticky carries
    //       iff low + t > 0; towards zero: nothing.
    // sig + inc < 2^kBits: sig < 2^(kBits-1) and inc <= 2^shift <= 2^(kBits-1).
    const Sig h = Sig{1} << (shift - 1);
    Sig inc = 0;
    switch (rnd) {
      case Rounding::rn: inc = h - 1 + (((sig >> shift) | sticky) & 1); break;
      case Rounding::rz: break;
      case Rounding::rm: inc = (2 * h - 1 + sticky) & (Sig{0} - s); break;
      case Rounding::rp: inc = (2 * h - 1 + sticky) & (Sig{0} - (s ^ 1)); break;
    }
    if (rs.width) {  // .rs: the carry of the random bits decides
      sig &= ~((Sig{1} << shift) - 1);
      inc = away ? Sig{1} << shift : 0;
    }
    mant = static_cast<uint64_t>((sig + inc) >> shift);
  }
  const uint64_t mag = (base << f.frac_bits) + mant;
  // Rows whose top exponent holds numbers: above the largest finite
  // encoding is e4m3's S.1111.111 (480 is not a number there) or beyond the
  // exponent field, reached also without rounding up.
  if (f.specials == Specials::finite_nan || f.specials == Specials::finite) {
    if (mag > f.max_finite(false)) return away ? f.inf(sign) : f.max_finite(sign);
  }
  return f.zero(sign) | mag;
}

}  // namespace ptxfu::fp
