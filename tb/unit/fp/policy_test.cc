// Special cases and modifiers the PTX ISA names: exact-zero signs, inf - inf,
// 0 * inf, overflow per rounding mode, the canonical NaN, .ftz, .sat, .relu,
// .oob and mixed precision. Expected values are either stated by the spec
// (or the brief's NaN policy) or computed by the MPFR oracle.
#include "fp/policy.h"
#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

using fp::Policy;
using fp::Rounding;

Policy P(Rounding r = Rounding::rn) { return Policy{r}; }

// The canonical NaNs of the NaN policy.
TEST(FpPolicy, CanonicalNanValues) {
  EXPECT_EQ(fp::canonical_nan(fp::kF16), 0x7fffu);
  EXPECT_EQ(fp::canonical_nan(fp::kBF16), 0x7fffu);
  EXPECT_EQ(fp::canonical_nan(fp::kF32), 0x7fffffffu);
  EXPECT_EQ(fp::canonical_nan(fp::kF64), 0x7fffffffffffffffu);
}

TEST(FpPolicy, ExactZeroSigns) {
  for (const Fmt& fm : kFormats) {
    const fp::Format& f = *fm.core;
    const uint64_t one = f.one(false), m_one = f.one(true);
    for (Rounding r : kModes) {
      const uint64_t z = f.zero(r == Rounding::rm);  // x + (-x)
      SCOPED_TRACE(std::string(f.name) + "." + mode_name(r));
      EXPECT_EQ(fp::add(f, one, m_one, P(r)), z);
      EXPECT_EQ(fp::sub(f, one, one, P(r)), z);
      EXPECT_EQ(fp::add(f, f.zero(false), f.zero(true), P(r)), z);
      EXPECT_EQ(fp::add(f, f.zero(true), f.zero(true), P(r)), f.zero(true));
      EXPECT_EQ(fp::add(f, f.zero(false), f.zero(false), P(r)), f.zero(false));
      EXPECT_EQ(fp::sub(f, f.zero(true), f.zero(false), P(r)), f.zero(true));
      EXPECT_EQ(fp::fma(f, one, one, m_one, P(r)), z);
      // 0 * x keeps the sign rule of multiplication; then the zero sum rule.
      EXPECT_EQ(fp::mul(f, f.zero(false), m_one, P(r)), f.zero(true));
      EXPECT_EQ(fp::fma(f, f.zero(false), m_one, f.zero(false), P(r)), z);
      EXPECT_EQ(fp::fma(f, f.zero(false), m_one, f.zero(true), P(r)), f.zero(true));
      EXPECT_EQ(fp::fma(f, f.zero(true), m_one, f.zero(false), P(r)), f.zero(false));
      // A nonzero product that underflows keeps its sign.
      const uint64_t tiny = f.zero(true) | 1;  // -min subnormal
      EXPECT_EQ(fp::fma(f, tiny, tiny, f.zero(true), P(r)), r == Rounding::rp ? f.zero(false) | 1 : f.zero(false));
    }
  }
}

TEST(FpPolicy, InvalidOperationsGiveCanonicalNan) {
  for (const Fmt& fm : kFormats) {
    const fp::Format& f = *fm.core;
    const uint64_t nan = fp::canonical_nan(f);
    SCOPED_TRACE(f.name);
    EXPECT_EQ(fp::add(f, f.inf(false), f.inf(true)), nan);
    EXPECT_EQ(fp::sub(f, f.inf(true), f.inf(true)), nan);
    EXPECT_EQ(fp::mul(f, f.zero(false), f.inf(true)), nan);
    EXPECT_EQ(fp::fma(f, f.zero(true), f.inf(false), f.one(false)), nan);
    EXPECT_EQ(fp::fma(f, f.one(false), f.inf(false), f.inf(true)), nan);
    EXPECT_EQ(fp::div(f, f.zero(false), f.zero(true)), nan);
    EXPECT_EQ(fp::div(f, f.inf(false), f.inf(true)), nan);
    EXPECT_EQ(fp::sqrt(f, f.one(true)), nan);
    // NaN operands: any payload, any sign -> the canonical NaN.
    const uint64_t snan = f.inf(true) | 1;
    EXPECT_EQ(fp::add(f, snan, f.one(false)), nan);
    EXPECT_EQ(fp::fma(f, f.one(false), f.one(false), snan), nan);
    EXPECT_EQ(fp::abs(f, snan), nan);
    EXPECT_EQ(fp::neg(f, snan), nan);
    EXPECT_EQ(fp::rcp(f, snan), nan);
    // The propagate setting keeps the first NaN operand, quietened.
    Policy pp;
    pp.nan = fp::NanMode::propagate;
    const uint64_t quiet = uint64_t{1} << (f.frac_bits - 1);
    EXPECT_EQ(fp::add(f, f.one(false), snan, pp), snan | quiet);
    EXPECT_EQ(fp::add(f, f.inf(false), f.inf(true), pp), nan);
  }
}

TEST(FpPolicy, OverflowPerMode) {
  for (const Fmt& fm : kFormats) {
    const fp::Format& f = *fm.core;
    for (bool s : {false, true}) {
      const uint64_t m = f.max_finite(s);
      SCOPED_TRACE(std::string(f.name) + (s ? " negative" : " positive"));
      EXPECT_EQ(fp::add(f, m, m, P(Rounding::rn)), f.inf(s));
      EXPECT_EQ(fp::add(f, m, m, P(Rounding::rz)), f.max_finite(s));
      EXPECT_EQ(fp::add(f, m, m, P(Rounding::rm)), s ? f.inf(true) : f.max_finite(false));
      EXPECT_EQ(fp::add(f, m, m, P(Rounding::rp)), s ? f.max_finite(true) : f.inf(false));
      EXPECT_EQ(fp::mul(f, m, f.one(false) + 1, P(Rounding::rz)), f.max_finite(s));
    }
  }
}

// .ftz against a reference built from the oracle: flush the operands, compute
// the correctly rounded IEEE result, flush it if it is subnormal.
uint64_t flush(const fp::Format& f, uint64_t x) { return fp::is_subnormal(f, x) ? x & f.sign_mask() : x; }

TEST(FpPolicy, FtzAgainstOracle) {
  for (int fi : {0, 2}) {  // f16 and f32 have .ftz
    const Fmt& fm = kFormats[fi];
    const fp::Format& f = *fm.core;
    Gen g(f, 99 + fi);
    int bad = 0;
    for (Rounding r : kModes) {
      Policy p{r};
      p.ftz = true;
      const oracle::Rnd o = to_oracle(r);
      for (int i = 0; i < 50000 && bad < 10; ++i) {
        uint64_t a, b, c;
        g.triple(a, b, c);
        if (i % 2) a = g.with_exp(0);  // a subnormal operand
        const uint64_t fa = flush(f, a), fb = flush(f, b), fc = flush(f, c);
        const uint64_t want_add = flush(f, oracle::add_bits(fm.spec, o, fa, fb));
        const uint64_t want_mul = flush(f, oracle::mul_bits(fm.spec, o, fa, fb));
        const uint64_t want_fma = flush(f, oracle::fma_bits(fm.spec, o, fa, fb, fc));
        const uint64_t want_div = flush(f, oracle::div_bits(fm.spec, o, fa, fb));
        bad += fp::add(f, a, b, p) != want_add;
        bad += fp::mul(f, a, b, p) != want_mul;
        bad += fp::fma(f, a, b, c, p) != want_fma;
        bad += fp::div(f, a, b, p) != want_div;
        if (bad && bad < 2) ADD_FAILURE() << f.name << " " << hex(a) << " " << hex(b) << " " << hex(c);
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

TEST(FpPolicy, FtzTininessAfterRounding) {
  // (1 - 2^-24) * 2^-126 in f32 lies between the largest subnormal and the
  // smallest normal: rn rounds it up to 2^-126 (kept), rz gives a subnormal
  // (flushed).
  Policy p;
  p.ftz = true;
  EXPECT_EQ(fp::mul(fp::kF32, 0x3f7fffff, 0x00800000, p), 0x00800000u);
  p.rnd = Rounding::rz;
  EXPECT_EQ(fp::mul(fp::kF32, 0x3f7fffff, 0x00800000, p), 0u);
  p.rnd = Rounding::rm;
  EXPECT_EQ(fp::mul(fp::kF32, 0xbf7fffff, 0x00800000, p), 0x80800000u);
  // Sign-preserving flush of operands and results.
  p.rnd = Rounding::rn;
  EXPECT_EQ(fp::mul(fp::kF16, 0x8001, 0x3c00, p), 0x8000u);
  EXPECT_EQ(fp::add(fp::kF16, 0x8001, 0x0000, p), 0x0000u);  // -0 + +0
  EXPECT_EQ(fp::add(fp::kF16, 0x8001, 0x8000, p), 0x8000u);
  EXPECT_EQ(fp::abs(fp::kF16, 0x8001, p), 0x0000u);
  EXPECT_EQ(fp::neg(fp::kF16, 0x0001, p), 0x8000u);
  EXPECT_EQ(fp::mul(fp::kF16, 0x0400, 0x3800, p), 0x0000u);  // 2^-14 * 0.5
  EXPECT_EQ(fp::rcp(fp::kF32, 0x80000001, p), 0xff800000u);  // 1 / -0
  // Without .ftz the same values are subnormal.
  EXPECT_EQ(fp::mul(fp::kF16, 0x0400, 0x3800), 0x0200u);
}

TEST(FpPolicy, Saturate) {
  Policy p;
  p.sat = true;
  const fp::Format& f = fp::kF16;
  EXPECT_EQ(fp::add(f, 0x3c00, 0x3c00, p), 0x3c00u);          // 2 -> 1
  EXPECT_EQ(fp::add(f, 0x3800, 0x3400, p), 0x3a00u);          // 0.75 unchanged
  EXPECT_EQ(fp::sub(f, 0x3800, 0x3c00, p), 0x0000u);          // -0.5 -> +0
  EXPECT_EQ(fp::mul(f, 0x8000, 0x3c00, p), 0x0000u);          // -0 -> +0
  EXPECT_EQ(fp::add(f, 0x7c00, 0xfc00, p), 0x0000u);          // NaN -> +0
  EXPECT_EQ(fp::add(f, 0x7e00, 0x3c00, p), 0x0000u);          // NaN operand -> +0
  EXPECT_EQ(fp::mul(f, 0x7c00, 0x3c00, p), 0x3c00u);          // +inf -> 1
  EXPECT_EQ(fp::mul(f, 0xfc00, 0x3c00, p), 0x0000u);          // -inf -> +0
  EXPECT_EQ(fp::fma(f, 0x3c00, 0x3c00, 0x0000, p), 0x3c00u);  // exactly 1
  EXPECT_EQ(fp::fma(fp::kF32, 0x3f800000, 0x3f800001, 0, p), 0x3f800000u);
  EXPECT_EQ(fp::fma(fp::kF32, 0x3f800000, 0x3f7fffff, 0, p), 0x3f7fffffu);
}

TEST(FpPolicy, Relu) {
  Policy p;
  p.relu = true;
  for (const fp::Format* f : {&fp::kF16, &fp::kBF16}) {
    const uint64_t one = f->one(false), m_one = f->one(true);
    EXPECT_EQ(fp::fma(*f, one, m_one, f->zero(false), p), 0u);               // -1 -> +0
    EXPECT_EQ(fp::fma(*f, one, one, one, p), fp::add(*f, one, one));         // 2 unchanged
    EXPECT_EQ(fp::fma(*f, f->zero(true), one, f->zero(true), p), 0u);        // -0 -> +0
    EXPECT_EQ(fp::fma(*f, f->inf(false), f->zero(false), one, p), 0x7fffu);  // NaN
    EXPECT_EQ(fp::fma(*f, f->inf(true), one, one, p), 0u);                   // -inf -> +0
  }
}

TEST(FpPolicy, OutOfBoundsNan) {
  Policy p;
  p.oob = true;
  for (const fp::Format* f : {&fp::kF16, &fp::kBF16}) {
    const uint64_t one = f->one(false);
    EXPECT_EQ(fp::oob_nan(*f), 0x7ff7u);
    EXPECT_EQ(fp::fma(*f, 0x7ff7, one, one, p), 0u);
    EXPECT_EQ(fp::fma(*f, one, 0xfff7, one, p), 0u);
    EXPECT_EQ(fp::fma(*f, one, one, 0x7ff7, p), 0u);
    EXPECT_EQ(fp::fma(*f, 0x7ff6, one, one, p), 0x7fffu);  // another NaN: NaN
    EXPECT_EQ(fp::fma(*f, 0x7ff7, one, one), 0x7fffu);     // without .oob: NaN
    Policy pr = p;
    pr.relu = true;
    EXPECT_EQ(fp::fma(*f, 0x7ff7, one, one, pr), 0u);
    EXPECT_EQ(fp::fma(*f, one, one, one, p), fp::add(*f, one, one));
  }
}

// d = cvt(a) + c, cvt(a) - c and cvt(a) * cvt(b) + c rounded once in f32.
TEST(FpMixed, AgainstOracle) {
  for (int si : {0, 1}) {
    const Fmt& src = kFormats[si];
    const Fmt& dst = kFormats[2];
    Gen gs(*src.core, 5 + si);
    Gen gd(*dst.core, 6 + si);
    int bad = 0;
    for (Rounding r : kModes) {
      for (bool sat : {false, true}) {
        Policy p{r};
        p.sat = sat;
        const oracle::Rnd o = to_oracle(r);
        for (int i = 0; i < 40000 && bad < 10; ++i) {
          const uint64_t a = gs.any_exp(), b = gs.any_exp();
          const double va = oracle::decode(src.spec, a), vb = oracle::decode(src.spec, b);
          // Addend near the product so that cancellation happens.
          uint64_t c = gd.any_exp();
          if (i % 2) c = oracle::encode(dst.spec, -va * vb) ^ (gd.rng()() & 0xff);
          const double vc = oracle::decode(dst.spec, c);
          auto sat_ref = [&](uint64_t x) {
            if (!sat) return x;
            const double v = oracle::decode(dst.spec, x);
            if (std::isnan(v) || v <= 0) return uint64_t{0};
            return v > 1 ? uint64_t{0x3f800000} : x;
          };
          const uint64_t w_fma = sat_ref(oracle::fma(dst.spec, o, va, vb, vc));
          const uint64_t w_add = sat_ref(oracle::add(dst.spec, o, va, vc));
          const uint64_t w_sub = sat_ref(oracle::sub(dst.spec, o, va, vc));
          const uint64_t g_fma = fp::fma_mixed(*src.core, *dst.core, a, b, c, p);
          const uint64_t g_add = fp::add_mixed(*src.core, *dst.core, a, c, p);
          const uint64_t g_sub = fp::sub_mixed(*src.core, *dst.core, a, c, p);
          if (g_fma != w_fma || g_add != w_add || g_sub != w_sub) {
            ++bad;
            ADD_FAILURE() << src.core->name << " " << mode_name(r) << (sat ? ".sat " : " ") << hex(a) << " " << hex(b)
                          << " " << hex(c) << ": fma " << hex(g_fma) << "/" << hex(w_fma) << " add " << hex(g_add)
                          << "/" << hex(w_add) << " sub " << hex(g_sub) << "/" << hex(w_sub);
          }
        }
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

// Values the PTX ISA examples use.
TEST(FpMixed, SpecExample) {
  EXPECT_EQ(fp::fma_mixed(fp::kF16, fp::kF32, 0x3c00, 0x4000, 0x3f800000), 0x40400000u);
  EXPECT_EQ(fp::add_mixed(fp::kBF16, fp::kF32, 0x3f80, 0x3f800000), 0x40000000u);
}

}  // namespace
}  // namespace ptxfu::fptest

namespace ptxfu::fptest {
namespace {

// The array forms apply every policy as the scalar operations do: each
// modifier combination, mode and row, on uniformly random bit patterns
// (NaNs, infinities, subnormals, the OOB-NaN's neighbours included).
TEST(FpPolicy, ArraysEqualScalar) {
  std::mt19937_64 rng(15);
  constexpr size_t kN = 3000;
  int bad = 0;
  for (const fp::Format* row : {&fp::kF16, &fp::kBF16, &fp::kF32, &fp::kF64, &fp::kTF32, &fp::kE5M2})
    for (unsigned flags = 0; flags < 32; ++flags)
      for (fp::Rounding r : kModes) {
        const fp::Format& f = *row;
        fp::Policy p{r};
        p.ftz = flags & 1, p.sat = flags & 2, p.relu = flags & 4, p.oob = flags & 8;
        p.nan = flags & 16 ? fp::NanMode::propagate : fp::NanMode::canonical;
        std::vector<uint64_t> a(kN), b(kN), c(kN), d(kN);
        for (size_t i = 0; i < kN; ++i) {
          a[i] = rng() & f.bits_mask(), b[i] = rng() & f.bits_mask(), c[i] = rng() & f.bits_mask();
          if (i % 97 == 0) a[i] = fp::oob_nan(f);
        }
        const auto expect = [&](const char* op, auto scalar) {
          for (size_t i = 0; i < kN; ++i)
            if (d[i] != scalar(i) && ++bad <= 10)
              ADD_FAILURE() << op << " " << f.name << " flags " << flags << " " << mode_name(r) << " " << hex(a[i])
                            << " " << hex(b[i]) << " " << hex(c[i]) << ": " << hex(d[i]) << " vs " << hex(scalar(i));
        };
        fp::add_n(f, kN, a.data(), b.data(), d.data(), p);
        expect("add", [&](size_t i) { return fp::add(f, a[i], b[i], p); });
        fp::sub_n(f, kN, a.data(), b.data(), d.data(), p);
        expect("sub", [&](size_t i) { return fp::sub(f, a[i], b[i], p); });
        fp::mul_n(f, kN, a.data(), b.data(), d.data(), p);
        expect("mul", [&](size_t i) { return fp::mul(f, a[i], b[i], p); });
        fp::fma_n(f, kN, a.data(), b.data(), c.data(), d.data(), p);
        expect("fma", [&](size_t i) { return fp::fma(f, a[i], b[i], c[i], p); });
      }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace ptxfu::fptest
