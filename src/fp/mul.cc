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
  if (rnd == Rounding::rn) {
    if (fast::is_f32(f)) {
      return fast::bits_of(fast::float_of(static_cast<uint32_t>(a)) *
                           fast::float_of(static_cast<uint32_t>(b)));
    }
    if (fast::is_f64(f)) return fast::bits_of(fast::double_of(a) * fast::double_of(b));
  }
  uint64_t r;
  if (fast::pair_exact(f) && fast::pair_mul(f, a, b, rnd, r)) return r;
  return generic::mul(f, a, b, rnd);
}

}  // namespace ieee

uint64_t mul(const Format& f, uint64_t a, uint64_t b, const Policy& p) {
  return apply_policy<2>(f, p, {a, b},
                         [&](const uint64_t* v) { return ieee::mul(f, v[0], v[1], p.rnd); });
}

}  // namespace ptxfu::fp
