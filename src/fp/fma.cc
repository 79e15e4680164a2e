// fma (and mad): a * b + c with one rounding, written once for every format.
#include <cmath>

#include "fp/core.h"
#include "fp/fast_path.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace generic {

uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd) {
  // classify
  const Unpacked x = unpack(f, a);
  const Unpacked y = unpack(f, b);
  const Unpacked z = unpack(f, c);
  const bool sp = x.sign != y.sign;  // sign of the product
  // special cases
  if (x.cls == Class::nan || y.cls == Class::nan || z.cls == Class::nan) return detail::default_nan(f);
  const bool p_inf = x.cls == Class::inf || y.cls == Class::inf;
  const bool p_zero = x.cls == Class::zero || y.cls == Class::zero;
  if (p_inf && p_zero) return detail::default_nan(f);  // 0 * inf
  if (p_inf) {
    if (z.cls == Class::inf && z.sign != sp) return detail::default_nan(f);  // inf - inf
    return f.inf(sp);
  }
  if (z.cls == Class::inf) return c;
  if (p_zero) {
    if (z.cls == Class::zero) return detail::exact_zero_sum(f, sp, z.sign, rnd);
    return c;
  }
  // product (exact, up to 2 * 53 bits)
  const u128 prod = static_cast<u128>(x.sig) * y.sig;
  const int pexp = x.exp + y.exp;
  if (z.cls == Class::zero) return round_pack(f, sp, pexp, prod, false, rnd);
  // addend alignment, add, normalise, round
  return detail::add_terms(f, sp, pexp, prod, z.sign, z.exp, z.sig, rnd);
}

}  // namespace generic

namespace ieee {

uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, Rounding rnd) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        uint64_t r;
        if (fast::try_fma(g, a, b, c, rnd, r)) return r;
        return generic::fma(g, a, b, c, rnd);
      });
}

}  // namespace ieee

uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        return apply_policy(
            g, p,
            [&](uint64_t x, uint64_t y, uint64_t z) __attribute__((always_inline)) {
              return fast::by_rounding(
                  p.rnd, [&](Rounding m) __attribute__((always_inline)) {
                    uint64_t r;
                    if (fast::try_fma(g, x, y, z, m, r)) return r;
                    return generic::fma(g, x, y, z, m);
                  });
            },
            a, b, c);
      });
}

}  // namespace ptxfu::fp
