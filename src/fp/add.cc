// add, sub: IEEE 754 addition, written once for every format.
#include <cmath>

#include "fp/core.h"
#include "fp/fast_path.h"
#include "fp/ops.h"

namespace ptxfu::fp {
namespace detail {

uint64_t add_terms(const Format& f, bool s1, int e1, u128 m1, bool s2, int e2, u128 m2, Rounding rnd) {
  // Align both significands so their leading bit is bit 125: sums stay below
  // 2^127 and inputs of up to 106 bits keep >= 19 zero bits at the bottom.
  constexpr int kTop = 125;
  const int sh1 = kTop - msb(m1);
  const int sh2 = kTop - msb(m2);
  m1 <<= sh1;
  e1 -= sh1;
  m2 <<= sh2;
  e2 -= sh2;
  if (e1 < e2) {
    std::swap(s1, s2);
    std::swap(e1, e2);
    std::swap(m1, m2);
  }
  // Shift the smaller term right, jamming lost bits into its lowest bit.
  // When bits are lost (d >= 20) the result has its leading bit at 124 or
  // 125, so every format's rounding point lies far above the jammed bit and
  // the jam only stands for "something below" (sticky).
  const int d = e1 - e2;
  if (d >= 127) {
    m2 = 1;
  } else if (d > 0) {
    const bool lost = (m2 & ((u128{1} << d) - 1)) != 0;
    m2 = (m2 >> d) | static_cast<u128>(lost);
  }
  if (s1 == s2) return round_pack(f, s1, e1, m1 + m2, false, rnd);
  if (m1 == m2) return f.zero(rnd == Rounding::rm);
  if (m1 > m2) return round_pack(f, s1, e1, m1 - m2, false, rnd);
  return round_pack(f, s2, e1, m2 - m1, false, rnd);
}

}  // namespace detail

namespace generic {

uint64_t add(const Format& f, uint64_t a, uint64_t b, Rounding rnd) {
  const Unpacked x = unpack(f, a);
  const Unpacked y = unpack(f, b);
  if (x.cls == Class::nan || y.cls == Class::nan) return detail::default_nan(f);
  if (x.cls == Class::inf || y.cls == Class::inf) {
    if (x.cls == Class::inf && y.cls == Class::inf && x.sign != y.sign) return detail::default_nan(f);  // inf - inf
    return f.inf(x.cls == Class::inf ? x.sign : y.sign);
  }
  if (x.cls == Class::zero && y.cls == Class::zero) return detail::exact_zero_sum(f, x.sign, y.sign, rnd);
  if (x.cls == Class::zero) return b;
  if (y.cls == Class::zero) return a;
  return detail::add_terms(f, x.sign, x.exp, x.sig, y.sign, y.exp, y.sig, rnd);
}

}  // namespace generic

namespace ieee {

uint64_t add(const Format& f, uint64_t a, uint64_t b, Rounding rnd) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        uint64_t r;
        if (fast::try_add(g, a, b, rnd, r)) return r;
        return generic::add(g, a, b, rnd);
      });
}

}  // namespace ieee

uint64_t add(const Format& f, uint64_t a, uint64_t b, const Policy& p) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        return apply_policy(
            g, p,
            [&](uint64_t x, uint64_t y) __attribute__((always_inline)) {
              return fast::by_rounding(
                  p.rnd, [&](Rounding m) __attribute__((always_inline)) {
                    uint64_t r;
                    if (fast::try_add(g, x, y, m, r)) return r;
                    return generic::add(g, x, y, m);
                  });
            },
            a, b);
      });
}

uint64_t sub(const Format& f, uint64_t a, uint64_t b, const Policy& p) {
  return fast::by_format(
      f, [&](const Format& g) __attribute__((always_inline)) {
        return apply_policy(
            g, p,
            [&](uint64_t x, uint64_t y) __attribute__((always_inline)) {
              y ^= g.sign_mask();
              return fast::by_rounding(
                  p.rnd, [&](Rounding m) __attribute__((always_inline)) {
                    uint64_t r;
                    if (fast::try_add(g, x, y, m, r)) return r;
                    return generic::add(g, x, y, m);
                  });
            },
            a, b);
      });
}

}  // namespace ptxfu::fp
