// tanh.approx and ex2.approx in f16 and bf16: every one of the 65536 inputs
// against MPFR, the PTX ISA error bounds, the corner-case tables of the
// spec, and the x2 packs through the executor; for the interpolation model
// and for the built-in H100 outputs alike (the spec binds the hardware too).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "approx/half_table.h"
#include "approx/mufu.h"
#include "exec/execute.h"
#include "oracle.h"

namespace ptxfu::test {
namespace {

using approx::HalfFn;
using fp::kBF16;
using fp::kF16;

constexpr uint16_t kNaN16 = 0x7fff;

struct Measured {
  MaxErr err;       // the bounded error (abs for tanh, rel for ex2)
  MaxErr sub_ulps;  // ex2: error of subnormal results in units of the subnormal quantum
};

// Where the outputs come from: the interpolation model or the H100's.
using Outputs = uint16_t (*)(HalfFn, uint16_t);

// tanh: absolute error over every finite input.
Measured measure_tanh(const fp::Format& f, HalfFn fn, Outputs out = approx::model_half) {
  Measured m;
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto x = static_cast<uint16_t>(i);
    const uint16_t y = out(fn, x);
    if (fp::is_nan(f, x)) {
      EXPECT_EQ(y, kNaN16) << std::hex << x;
      continue;
    }
    const long double ref = mpfr_ref(RefFn::tanh, value_of(f, x));
    m.err.add(std::fabs(value_of(f, y) - ref), x);
  }
  return m;
}

// ex2: relative error where the exact result is a normal number of the
// format; beyond the largest finite the result must be +inf; below the
// smallest normal, f16 rounds gradually (error measured in subnormal ulps)
// and bf16 (.ftz) returns +0 or the smallest normal.
Measured measure_ex2(const fp::Format& f, HalfFn fn, bool ftz, Outputs out = approx::model_half) {
  Measured m;
  const long double max_finite = value_of(f, f.max_finite(false));
  const long double min_normal = std::ldexp(1.0L, f.emin());
  const long double overflow = max_finite + ulp_of(f, max_finite) / 2;
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto x = static_cast<uint16_t>(i);
    const uint16_t y = out(fn, x);
    if (fp::is_nan(f, x)) {
      EXPECT_EQ(y, kNaN16) << std::hex << x;
      continue;
    }
    const long double ref = mpfr_ref(RefFn::ex2, value_of(f, x));
    const long double got = value_of(f, y);
    if (ref >= overflow) {
      EXPECT_EQ(y, f.inf(false)) << std::hex << x;
    } else if (ref >= min_normal) {
      m.err.add(std::fabs(got - ref) / ref, x);
    } else if (ftz) {
      EXPECT_TRUE(y == 0 || y == f.one(false) - (static_cast<uint64_t>(f.bias() - 1) << f.frac_bits))
          << std::hex << x << " -> " << y;
    } else {
      m.sub_ulps.add(std::fabs(got - ref) / ulp_of(f, 0), x);
    }
  }
  return m;
}

void report(const char* name, const Measured& m, long double bound, const char* kind) {
  std::cout << name << " max " << kind << " err " << pow2_str(m.err.err) << " at 0x" << std::hex << m.err.at << std::dec
            << " (bound " << pow2_str(bound) << ")\n";
  EXPECT_LE(m.err.err, bound) << name << " worst input 0x" << std::hex << m.err.at;
}

TEST(HalfTanh, F16AllInputsWithinAbsBound) {
  report("tanh.approx.f16", measure_tanh(kF16, HalfFn::tanh_f16), std::exp2(-10.987L), "abs");
}

TEST(HalfTanh, BF16AllInputsWithinAbsBound) {
  report("tanh.approx.bf16", measure_tanh(kBF16, HalfFn::tanh_bf16), std::exp2(-8.0L), "abs");
}

TEST(HalfEx2, F16AllInputsWithinRelBound) {
  const Measured m = measure_ex2(kF16, HalfFn::ex2_f16, false);
  report("ex2.approx.f16", m, std::exp2(-9.9L), "rel");
  std::cout << "ex2.approx.f16 subnormal results max err " << static_cast<double>(m.sub_ulps.err) << " ulp\n";
  EXPECT_LE(m.sub_ulps.err, 0.51L);
}

TEST(HalfEx2, BF16FtzAllInputsWithinRelBound) {
  report("ex2.approx.ftz.bf16", measure_ex2(kBF16, HalfFn::ex2_ftz_bf16, true), std::exp2(-7.0L), "rel");
}

// The H100's outputs against the spec's bounds. Two findings of the
// measurement, stated here rather than hidden: tanh.approx.bf16 of
// +-0.74609375 (0x3f3f) is 0.62890625, 2^-7.9999 from tanh, just past the
// spec's 2^-8 (the correctly rounded 0.6328125 was one ulp away); and
// ex2.approx.f16's subnormal results are within 1 ulp, not rounded to nearest
// as the model's are.
TEST(HalfH100, AllInputsWithinTheSpecBoundsButTwo) {
  const Outputs h100 = approx::builtin_half;
  report("H100 tanh.approx.f16", measure_tanh(kF16, HalfFn::tanh_f16, h100), std::exp2(-10.987L), "abs");
  const Measured t = measure_tanh(kBF16, HalfFn::tanh_bf16, h100);
  std::cout << "H100 tanh.approx.bf16 max abs err " << pow2_str(t.err.err) << " at 0x" << std::hex << t.err.at
            << std::dec << "\n";
  EXPECT_EQ(t.err.at & 0x7fff, 0x3f3fu);
  EXPECT_EQ(h100(HalfFn::tanh_bf16, 0x3f3f), 0x3f21);  // 0.62890625
  EXPECT_LE(t.err.err, std::exp2(-7.9999L));
  for (uint16_t x = 0; x < 0x7f80; ++x) {  // everywhere else within the spec's 2^-8 (tanh is odd)
    if (x == 0x3f3f) continue;
    const long double ref = mpfr_ref(RefFn::tanh, value_of(kBF16, x));
    ASSERT_LE(std::fabs(value_of(kBF16, h100(HalfFn::tanh_bf16, x)) - ref), std::exp2(-8.0L)) << std::hex << x;
  }
  const Measured m = measure_ex2(kF16, HalfFn::ex2_f16, false, h100);
  report("H100 ex2.approx.f16", m, std::exp2(-9.9L), "rel");
  std::cout << "H100 ex2.approx.f16 subnormal results max err " << static_cast<double>(m.sub_ulps.err) << " ulp\n";
  EXPECT_GT(m.sub_ulps.err, 0.9L);
  EXPECT_LT(m.sub_ulps.err, 1.0L);
  report("H100 ex2.approx.ftz.bf16", measure_ex2(kBF16, HalfFn::ex2_ftz_bf16, true, h100), std::exp2(-7.0L), "rel");
}

// "Results of tanh for various corner-case inputs": -Inf -> -1.0, -0.0 ->
// -0.0, +0.0 -> +0.0, +Inf -> 1.0, NaN -> NaN; "The subnormal numbers are
// supported."
TEST(HalfTanh, CornerCases) {
  for (Outputs out : {Outputs{approx::model_half}, Outputs{approx::builtin_half}})
    for (HalfFn fn : {HalfFn::tanh_f16, HalfFn::tanh_bf16}) {
      const fp::Format& f = fn == HalfFn::tanh_f16 ? kF16 : kBF16;
      const auto t = [fn, out](uint64_t x) { return out(fn, static_cast<uint16_t>(x)); };
      EXPECT_EQ(t(f.inf(true)), f.one(true));
      EXPECT_EQ(t(f.zero(true)), f.zero(true));
      EXPECT_EQ(t(f.zero(false)), f.zero(false));
      EXPECT_EQ(t(f.inf(false)), f.one(false));
      EXPECT_EQ(t(f.exp_mask() | 1), kNaN16);
      EXPECT_EQ(t(f.sign_mask() | f.exp_mask() | f.frac_mask()), kNaN16);
      // subnormals: tanh(x) = x to the format's precision
      EXPECT_EQ(t(1), 1u);
      EXPECT_EQ(t(f.sign_mask() | f.frac_mask()), f.sign_mask() | f.frac_mask());
    }
}

// ex2.approx.ftz.bf16: -Inf -> +0.0, -subnormal -> +1.0, -0.0 -> +1.0,
// +0.0 -> +1.0, +subnormal -> +1.0, +Inf -> +Inf, NaN -> NaN.
TEST(HalfEx2, BF16FtzCornerCases) {
  const auto e = [](uint64_t x) { return approx::ex2_approx_ftz_bf16(static_cast<uint16_t>(x)); };
  EXPECT_EQ(e(0xff80), 0x0000);
  EXPECT_EQ(e(0x8001), 0x3f80);
  EXPECT_EQ(e(0x807f), 0x3f80);
  EXPECT_EQ(e(0x8000), 0x3f80);
  EXPECT_EQ(e(0x0000), 0x3f80);
  EXPECT_EQ(e(0x0001), 0x3f80);
  EXPECT_EQ(e(0x007f), 0x3f80);
  EXPECT_EQ(e(0x7f80), 0x7f80);
  EXPECT_EQ(e(0x7fc0), kNaN16);
  EXPECT_EQ(e(0xffff), kNaN16);
}

// ex2.approx.f16: -Inf -> +0.0, -0.0 -> +1.0, +0.0 -> +1.0, +Inf -> +Inf,
// NaN -> NaN; "subnormal inputs are supported".
TEST(HalfEx2, F16CornerCases) {
  const auto e = [](uint64_t x) { return approx::ex2_approx_f16(static_cast<uint16_t>(x)); };
  EXPECT_EQ(e(0xfc00), 0x0000);
  EXPECT_EQ(e(0x8000), 0x3c00);
  EXPECT_EQ(e(0x0000), 0x3c00);
  EXPECT_EQ(e(0x7c00), 0x7c00);
  EXPECT_EQ(e(0x7e00), kNaN16);
  EXPECT_EQ(e(0xfc01), kNaN16);
  EXPECT_EQ(e(0x0001), 0x3c00);  // 2^(2^-24) rounds to 1
  EXPECT_EQ(e(0x4000), 0x4400);  // 2^2 = 4 exactly
  EXPECT_EQ(e(0xbc00), 0x3800);  // 2^-1 = 0.5 exactly
}

isa::Instr half_instr(isa::Op op, isa::Type t, bool ftz) {
  isa::Instr in;
  in.op = op;
  in.type = t;
  in.type2 = t;
  in.mods = isa::bit(isa::Mod::approx) | (ftz ? isa::bit(isa::Mod::ftz) : 0);
  in.num_src = 1;
  return in;
}

TEST(HalfExec, X2PacksAreLaneWise) {
  struct Case {
    isa::Op op;
    isa::Type scalar, pair;
    bool ftz;
    HalfFn fn;
  };
  const Case cases[] = {
      {isa::Op::tanh, isa::Type::f16, isa::Type::f16x2, false, HalfFn::tanh_f16},
      {isa::Op::tanh, isa::Type::bf16, isa::Type::bf16x2, false, HalfFn::tanh_bf16},
      {isa::Op::ex2, isa::Type::f16, isa::Type::f16x2, false, HalfFn::ex2_f16},
      {isa::Op::ex2, isa::Type::bf16, isa::Type::bf16x2, true, HalfFn::ex2_ftz_bf16},
  };
  for (const Case& c : cases) {
    for (uint32_t lo : {0x0000u, 0x3c00u, 0xbf80u, 0x4100u, 0x0001u, 0xfc00u}) {
      for (uint32_t hi : {0x3555u, 0x7c00u, 0xc000u, 0x8000u}) {
        const uint64_t src = lo | (hi << 16);
        exec::Result r;
        ASSERT_TRUE(exec::execute_approx(half_instr(c.op, c.pair, c.ftz), &src, r));
        const uint64_t want = approx::eval_half(c.fn, static_cast<uint16_t>(lo)) |
                              (uint64_t{approx::eval_half(c.fn, static_cast<uint16_t>(hi))} << 16);
        EXPECT_EQ(r.value, want) << std::hex << src;
        exec::Result s;
        const uint64_t one = lo;
        ASSERT_TRUE(exec::execute_approx(half_instr(c.op, c.scalar, c.ftz), &one, s));
        EXPECT_EQ(s.value, approx::eval_half(c.fn, static_cast<uint16_t>(lo)));
      }
    }
  }
}

}  // namespace
}  // namespace ptxfu::test
