// mul: IEEE 754 multiplication, written once for every format.
#include "fp/core.h"
#include "fp/fast_path.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace generic {

uint64_t mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd) {
  const Unpacked x = unpack(f, a);
  const Unpacked y = unpack(f, b);
  const bool sign = x.sign != y.sign;
  if (x.cls == Class::nan || y.cls == Class::nan) return detail::default_nan(f);
  if (x.cls == Class::inf || y.cls == Class::inf) {
    if (x.cls == Class::zero || y.cls == Class::zero) return detail::default_nan(f);  // 0 * inf
    return f.inf(sign);
  }
  if (x.cls == Class::zero || y.cls == Class::zero) return f.zero(sign);
  return round_pack(f, sign, x.exp + y.exp, static_cast<u128>(x.sig) * y.sig, false, rnd);
}

}  // namespace generic

namespace ieee {

uint64_t mul(const Format& f, uint64_t a, uint64_t b, Rounding rnd) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        uint64_t r;
        if (fast::try_mul(g, a, b, rnd, r)) return r;
        return generic::mul(g, a, b, rnd);
      });
}

}  // namespace ieee

uint64_t mul(const Format& f, uint64_t a, uint64_t b, const Policy& p) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        return apply_policy(
            g, p,
            [&](uint64_t x, uint64_t y) __attribute__((always_inline)) {
              return fast::by_rounding(
                  p.rnd, [&](Rounding m) __attribute__((always_inline)) {
                    uint64_t r;
                    if (fast::try_mul(g, x, y, m, r)) return r;
                    return generic::mul(g, x, y, m);
                  });
            },
            a, b);
      });
}

}  // namespace ptxfu::fp
