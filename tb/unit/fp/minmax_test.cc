// min/max: the PTX pseudo-code (9.7.4.7/8) transcribed on doubles as an
// independent reference, checked on structured and random operands of every
// format, plus the cases the spec names explicitly.
#include <cmath>

#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

using fp::MinMaxMode;

// Reference: operands as doubles (exact); returns the result as bits of the
// format, NaN as the canonical NaN.
uint64_t ref_minmax(const Fmt& fm, uint64_t a_bits, uint64_t b_bits, bool ftz, MinMaxMode m, bool is_max) {
  const fp::Format& f = *fm.core;
  double a = oracle::decode(fm.spec, a_bits);
  double b = oracle::decode(fm.spec, b_bits);
  const double min_normal = std::ldexp(1.0, f.emin());
  if (ftz && std::fabs(a) < min_normal) a = std::copysign(0.0, a);
  if (ftz && std::fabs(b) < min_normal) b = std::copysign(0.0, b);
  bool xorsign = false;
  if (m.xorsign_abs) {
    xorsign = std::signbit(a) != std::signbit(b);
    a = std::fabs(a);
    b = std::fabs(b);
  }
  // "a < b" with +0 > -0.
  auto less = [](double x, double y) {
    if (x == 0 && y == 0) return std::signbit(x) && !std::signbit(y);
    return x < y;
  };
  double d;
  if (std::isnan(a) && std::isnan(b))
    d = NAN;
  else if (m.nan && (std::isnan(a) || std::isnan(b)))
    d = NAN;
  else if (std::isnan(a))
    d = b;
  else if (std::isnan(b))
    d = a;
  else
    d = is_max ? (less(b, a) ? a : b) : (less(a, b) ? a : b);
  if (m.xorsign_abs && !std::isnan(d)) d = std::copysign(d, xorsign ? -1.0 : 1.0);
  return oracle::encode(fm.spec, d);
}

TEST(FpMinMax, AgainstPseudoCode) {
  for (const Fmt& fm : kFormats) {
    const fp::Format& f = *fm.core;
    std::vector<uint64_t> v = edge_values(f, false);
    v.push_back(f.inf(false) | 0x7);  // positive NaN
    Gen g(f, 3);
    for (int i = 0; i < 200; ++i) v.push_back(g.any_exp());
    int bad = 0;
    for (bool ftz : {false, true})
      for (bool nan : {false, true})
        for (bool xs : {false, true})
          for (bool is_max : {false, true}) {
            fp::Policy p;
            p.ftz = ftz;
            const MinMaxMode m{nan, xs, false};
            for (uint64_t a : v)
              for (uint64_t b : v) {
                const uint64_t got = is_max ? fp::max(f, a, b, p, m) : fp::min(f, a, b, p, m);
                const uint64_t want = ref_minmax(fm, a, b, ftz, m, is_max);
                if (got != want && ++bad <= 5)
                  ADD_FAILURE() << (is_max ? "max" : "min") << (ftz ? ".ftz" : "") << (nan ? ".NaN" : "")
                                << (xs ? ".xorsign.abs." : ".") << f.name << " " << hex(a) << " " << hex(b) << ": got "
                                << hex(got) << " want " << hex(want);
              }
          }
    EXPECT_EQ(bad, 0) << f.name;
  }
}

TEST(FpMinMax, NamedCases) {
  const fp::Format& h = fp::kF16;
  const uint64_t nan = 0x7e01, one = 0x3c00, m_two = 0xc000, three = 0x4200;
  // NaN table: a NaN operand is ignored unless .NaN; two NaNs give NaN.
  EXPECT_EQ(fp::min(h, nan, one), one);
  EXPECT_EQ(fp::min(h, one, nan), one);
  EXPECT_EQ(fp::max(h, nan, nan), 0x7fffu);
  EXPECT_EQ(fp::min(h, nan, one, {}, {true, false, false}), 0x7fffu);
  EXPECT_EQ(fp::max(h, one, nan, {}, {true, false, false}), 0x7fffu);
  // +0 > -0 in either order.
  EXPECT_EQ(fp::min(h, 0x0000, 0x8000), 0x8000u);
  EXPECT_EQ(fp::min(h, 0x8000, 0x0000), 0x8000u);
  EXPECT_EQ(fp::max(h, 0x8000, 0x0000), 0x0000u);
  EXPECT_EQ(fp::max(h, 0x0000, 0x8000), 0x0000u);
  // .xorsign.abs: magnitude of the min/max of |a|, |b|, sign a ^ b.
  const MinMaxMode xs{false, true, false};
  EXPECT_EQ(fp::min(h, m_two, three, {}, xs), 0xc000u);   // -2
  EXPECT_EQ(fp::max(h, m_two, three, {}, xs), 0xc200u);   // -3
  EXPECT_EQ(fp::max(h, m_two, 0xc200, {}, xs), 0x4200u);  // +3
  // xorsign with a NaN operand: the non-NaN result still gets the xor sign
  // (the NaN's sign bit counts); a NaN result ignores .xorsign.abs.
  EXPECT_EQ(fp::min(h, 0x7e00, 0xc200, {}, xs), 0xc200u);
  EXPECT_EQ(fp::min(h, 0xfe00, 0xc200, {}, xs), 0x4200u);
  EXPECT_EQ(fp::min(h, 0xfe00, 0xc200, {}, {true, true, false}), 0x7fffu);
  // .ftz: flushed subnormals compare as zeros.
  fp::Policy ftz;
  ftz.ftz = true;
  EXPECT_EQ(fp::min(h, 0x0001, one, ftz), 0x0000u);
  EXPECT_EQ(fp::min(h, 0x8001, 0x0000, ftz), 0x8000u);
  EXPECT_EQ(fp::min(h, 0x0001, one), 0x0001u);
  // f32/f64 keep operand bits for non-NaN results.
  EXPECT_EQ(fp::max(fp::kF64, 0x8000000000000000, 0x0000000000000001), 0x1u);
}

TEST(FpMinMax, ThreeInputs) {
  const fp::Format& f = fp::kF32;
  const uint64_t nan = 0x7fc00000, m5 = 0xc0a00000, two = 0x40000000, one = 0x3f800000;
  EXPECT_EQ(fp::min3(f, two, m5, one), m5);
  EXPECT_EQ(fp::max3(f, two, m5, one), two);
  EXPECT_EQ(fp::max3(f, nan, m5, one), one);
  EXPECT_EQ(fp::min3(f, nan, nan, one), one);
  EXPECT_EQ(fp::min3(f, nan, nan, nan), 0x7fffffffu);
  EXPECT_EQ(fp::min3(f, one, two, nan, {}, {true, false, false}), 0x7fffffffu);
  EXPECT_EQ(fp::max3(f, m5, two, nan, {}, {false, false, true}), 0x40a00000u);  // |-5|
  EXPECT_EQ(fp::min3(f, m5, two, 0x80000000, {}, {false, false, true}), 0u);    // |-0|
  EXPECT_EQ(fp::min3(f, 0, 0x80000000, one), 0x80000000u);
  // Against the two-input reference: min3(a, b, c) = min(min(a, b), c).
  Gen g(f, 11);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t a = g.any_exp(), b = g.any_exp(), c = i % 7 ? g.any_exp() : nan;
    for (bool nm : {false, true}) {
      const MinMaxMode m{nm, false, false};
      ASSERT_EQ(fp::min3(f, a, b, c, {}, m), fp::min(f, fp::min(f, a, b, {}, m), c, {}, m));
      ASSERT_EQ(fp::max3(f, a, b, c, {}, m), fp::max(f, fp::max(f, a, b, {}, m), c, {}, m));
    }
  }
}

}  // namespace
}  // namespace ptxfu::fptest
