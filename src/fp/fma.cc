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
  if (x.cls == Class::nan || y.cls == Class::nan || z.cls == Class::nan)
    return detail::default_nan(f);
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
  if (rnd == Rounding::rn) {
    if (fast::is_f32(f)) {
      return fast::bits_of(std::fma(fast::float_of(static_cast<uint32_t>(a)),
                                    fast::float_of(static_cast<uint32_t>(b)),
                                    fast::float_of(static_cast<uint32_t>(c))));
    }
    if (fast::is_f64(f)) {
      return fast::bits_of(std::fma(fast::double_of(a), fast::double_of(b), fast::double_of(c)));
    }
  }
  uint64_t r;
  if (fast::pair_exact(f) && fast::pair_fma(f, a, b, c, rnd, r)) return r;
  return generic::fma(f, a, b, c, rnd);
}

}  // namespace ieee

uint64_t fma(const Format& f, uint64_t a, uint64_t b, uint64_t c, const Policy& p) {
  return apply_policy<3>(f, p, {a, b, c}, [&](const uint64_t* v) {
    return ieee::fma(f, v[0], v[1], v[2], p.rnd);
  });
}

}  // namespace ptxfu::fp
