// sqrt: IEEE 754 square root, written once for every format.
#include <cmath>

#include "fp/core.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace {

// floor(sqrt(m)) for 2^124 <= m < 2^126.
uint64_t isqrt(u128 m) {
  u128 r = static_cast<u128>(std::sqrt(static_cast<double>(m)));  // within 2^-50 relative
  for (int i = 0; i < 2; ++i) r = (r + m / r) / 2;                // Newton steps
  while (r * r > m) --r;
  while ((r + 1) * (r + 1) <= m) ++r;
  return static_cast<uint64_t>(r);
}

}  // namespace

namespace ieee {

uint64_t sqrt(const Format& f, uint64_t a, Rounding rnd) {
  const Unpacked x = unpack(f, a);
  if (x.cls == Class::nan) return detail::default_nan(f);
  if (x.cls == Class::zero) return a;  // sqrt(-0) = -0
  if (x.sign) return detail::default_nan(f);
  if (x.cls == Class::inf) return a;
  // Leading bit at 124 or 125 with an even exponent: the root has 63 bits.
  int sh = 124 - detail::msb(x.sig);
  if ((x.exp - sh) & 1) ++sh;
  const u128 m = static_cast<u128>(x.sig) << sh;
  const uint64_t r = isqrt(m);
  const bool sticky = static_cast<u128>(r) * r != m;
  return round_pack(f, false, (x.exp - sh) / 2, r, sticky, rnd);
}

}  // namespace ieee

uint64_t sqrt(const Format& f, uint64_t a, const Policy& p) {
  return apply_policy(
      f, p, [&](uint64_t va) { return ieee::sqrt(f, va, p.rnd); }, a);
}

}  // namespace ptxfu::fp
