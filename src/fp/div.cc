// div and rcp: IEEE 754 division, written once for every format.
#include "fp/core.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace ieee {

uint64_t div(const Format& f, uint64_t a, uint64_t b, Rounding rnd) {
  const Unpacked x = unpack(f, a);
  const Unpacked y = unpack(f, b);
  const bool sign = x.sign != y.sign;
  if (x.cls == Class::nan || y.cls == Class::nan) return detail::default_nan(f);
  if (x.cls == Class::inf) return y.cls == Class::inf ? detail::default_nan(f) : f.inf(sign);
  if (y.cls == Class::inf) return f.zero(sign);
  if (y.cls == Class::zero) return x.cls == Class::zero ? detail::default_nan(f) : f.inf(sign);
  if (x.cls == Class::zero) return f.zero(sign);
  // Dividend's leading bit at 125, divisor's at 62: the quotient has 63 or
  // 64 bits (>= frac_bits + 3 for every format up to f64); the remainder is
  // the sticky bit.
  const int shx = 125 - detail::msb(x.sig);
  const int shy = 62 - detail::msb(y.sig);
  const u128 n = static_cast<u128>(x.sig) << shx;
  const u128 d = static_cast<u128>(y.sig) << shy;
  const u128 q = n / d;
  const bool sticky = n % d != 0;
  return round_pack(f, sign, (x.exp - shx) - (y.exp - shy), q, sticky, rnd);
}

}  // namespace ieee

uint64_t div(const Format& f, uint64_t a, uint64_t b, const Policy& p) {
  return apply_policy(
      f, p, [&](uint64_t va, uint64_t vb) { return ieee::div(f, va, vb, p.rnd); }, a, b);
}

uint64_t rcp(const Format& f, uint64_t a, const Policy& p) {
  return apply_policy(
      f, p, [&](uint64_t va) { return ieee::div(f, f.one(false), va, p.rnd); }, a);
}

}  // namespace ptxfu::fp
