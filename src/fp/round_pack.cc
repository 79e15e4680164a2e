#include "fp/format.h"

namespace ptxfu::fp {
namespace {

int msb_index(u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<uint64_t>(v));
}

uint64_t overflow_result(const Format& f, bool sign, Rounding rnd) {
  switch (rnd) {
    case Rounding::rn: return f.inf(sign);
    case Rounding::rz: return f.max_finite(sign);
    case Rounding::rm: return sign ? f.inf(true) : f.max_finite(false);
    case Rounding::rp: return sign ? f.max_finite(true) : f.inf(false);
  }
  return f.inf(sign);
}

}  // namespace

uint64_t round_pack(const Format& f, bool sign, int exp, u128 sig, bool sticky, Rounding rnd) {
  if (sig == 0) return f.zero(sign);
  const int top = exp + msb_index(sig);  // exponent of the leading bit
  // Exponent of the last kept bit: the format's precision, but never below
  // the subnormal quantum.
  const int lsb = (top >= f.emin() ? top : f.emin()) - f.frac_bits;
  const int shift = lsb - exp;

  u128 mant;
  bool guard = false;
  bool rest = sticky;
  if (shift <= 0) {
    mant = sig << -shift;
  } else if (shift >= 128) {
    mant = 0;
    guard = shift == 128 && (sig >> 127) != 0;
    rest = rest || (shift == 128 ? (sig << 1) != 0 : true);
  } else {
    mant = sig >> shift;
    guard = ((sig >> (shift - 1)) & 1) != 0;
    rest = rest || (sig & ((u128{1} << (shift - 1)) - 1)) != 0;
  }

  bool increment = false;
  switch (rnd) {
    case Rounding::rn: increment = guard && (rest || (mant & 1)); break;
    case Rounding::rz: break;
    case Rounding::rm: increment = sign && (guard || rest); break;
    case Rounding::rp: increment = !sign && (guard || rest); break;
  }
  mant += increment;

  int res_lsb = lsb;
  if (mant >> (f.frac_bits + 1)) {  // carried into a new leading bit
    mant >>= 1;
    ++res_lsb;
  }
  const auto m = static_cast<uint64_t>(mant);
  if ((m >> f.frac_bits) == 0) return f.zero(sign) | m;  // subnormal or zero
  const int res_exp = res_lsb + f.frac_bits;
  if (res_exp > f.emax()) return overflow_result(f, sign, rnd);
  return f.zero(sign) | (static_cast<uint64_t>(res_exp + f.bias()) << f.frac_bits) |
         (m & f.frac_mask());
}

}  // namespace ptxfu::fp
