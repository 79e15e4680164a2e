// The f32 special functions against MPFR: more than 10^6 inputs each (the
// whole range through random bit patterns, runs of consecutive patterns at
// 0, +-1 and the range limits, and uniform values where the bound is stated),
// the PTX ISA bounds, and the .ftz variants.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>

#include "approx/mufu.h"
#include "oracle.h"

namespace ptxfu::test {
namespace {

using fp::kF32;

constexpr uint32_t kNaN32 = 0x7fffffff;
constexpr size_t kInputs = 1'250'000;
const long double kPi = std::acos(-1.0L);

bool positive(uint32_t b) { return (b & 0x80000000u) == 0; }
bool within_100pi(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return std::fabs(v) <= 100 * kPi;
}
bool within_div_approx_range(uint32_t b) {
  const uint32_t e = (b >> 23) & 0xff;  // |b| in [2^-126, 2^126]
  return e >= 1 && (e < 253 || (b & 0x7fffffffu) == 0x7e800000u);
}

using Model = std::function<uint64_t(uint32_t, bool)>;

enum class Metric { ulp, rel, abs, abs_below_one_else_rel };

long double error_of(Metric m, long double got, long double ref) {
  const long double d = std::fabs(got - ref);
  switch (m) {
    case Metric::ulp: return d / ulp_of(kF32, ref);
    case Metric::rel: return d / std::fabs(ref);
    case Metric::abs: return d;
    case Metric::abs_below_one_else_rel: return d / std::max(1.0L, std::fabs(ref));
  }
  return d;
}

// Result of the .ftz variant for a normal input, given the full-range
// variant's result r: the same, or a signed zero where r is subnormal.
void expect_ftz_consistent(uint32_t x, uint64_t r, uint64_t r_ftz) {
  if (fp::is_subnormal(kF32, r)) {
    EXPECT_EQ(r_ftz, r & kF32.sign_mask()) << std::hex << x;
  } else {
    EXPECT_EQ(r_ftz, r) << std::hex << x;
  }
}

struct Measurement {
  MaxErr err;
  size_t checked = 0;
};

// Measures `model` (non-.ftz) over `inputs` for which `in_domain` holds;
// NaN results must be the canonical NaN and happen exactly where the
// reference is NaN; exact results beyond the largest finite must give inf.
Measurement measure(const std::vector<uint32_t>& inputs, RefFn fn, const Model& model, Metric metric,
                    const std::function<bool(long double)>& in_domain, bool has_ftz) {
  Measurement run;
  const long double max_finite = value_of(kF32, kF32.max_finite(false));
  const long double overflow = max_finite + ulp_of(kF32, max_finite) / 2;
  for (uint32_t x : inputs) {
    const long double xv = value_of(kF32, x);
    if (!std::isfinite(xv) || xv == 0 || !in_domain(xv)) continue;
    const uint64_t y = model(x, false);
    if (has_ftz && !fp::is_subnormal(kF32, x)) expect_ftz_consistent(x, y, model(x, true));
    const long double ref = mpfr_ref(fn, xv);
    if (std::isnan(ref)) {
      EXPECT_EQ(y, kNaN32) << std::hex << x;
      continue;
    }
    if (std::fabs(ref) >= overflow) {
      EXPECT_EQ(y, kF32.inf(ref < 0)) << std::hex << x;
      continue;
    }
    const long double got = value_of(kF32, y);
    ++run.checked;
    if (std::isnan(got) || std::isinf(got)) {
      ADD_FAILURE() << "non-finite result 0x" << std::hex << y << " for 0x" << x;
      continue;
    }
    run.err.add(error_of(metric, got, ref), x);
  }
  return run;
}

void report(const char* name, const Measurement& run, long double bound, const char* kind,
            size_t min_checked = 1'000'000) {
  std::cout << name << " max " << kind << " err " << pow2_str(run.err.err);
  if (std::string(kind) == "ulp") std::cout << " (" << static_cast<double>(run.err.err) << " ulp)";
  std::cout << " at 0x" << std::hex << run.err.at << std::dec << " over " << run.checked << " inputs (bound "
            << pow2_str(bound) << ")\n";
  EXPECT_GE(run.checked, min_checked) << name;
  EXPECT_LE(run.err.err, bound) << name << " worst input 0x" << std::hex << run.err.at;
}

const std::vector<float> kDense = {0.0f,      1.0f,     2.0f,     0.5f,    0x1p-126f,
                                   0x1p-149f, 0x1p126f, 0x1p127f, 3.4e38f, 0x1p-125f};

bool any(long double) { return true; }

TEST(F32Approx, Rcp) {
  const auto in = f32_inputs(1, kInputs, kDense, {{-4, 4}, {-1e-37f, 1e-37f}});
  const Measurement r = measure(
      in, RefFn::rcp, [](uint32_t a, bool ftz) { return approx::rcp_approx(kF32, a, ftz); }, Metric::ulp, any, true);
  report("rcp.approx.f32", r, 1.0L, "ulp");
}

TEST(F32Approx, Sqrt) {
  const auto in = f32_inputs(2, kInputs, kDense, {{0, 4}, {0, 1e-37f}, {0, 3e38f}}, positive);
  const Measurement r = measure(
      in, RefFn::sqrt, [](uint32_t a, bool ftz) { return approx::sqrt_approx(kF32, a, ftz); }, Metric::rel, any, true);
  report("sqrt.approx.f32", r, std::exp2(-23.0L), "rel");
}

TEST(F32Approx, Rsqrt) {
  const auto in = f32_inputs(3, kInputs, kDense, {{0, 4}, {0, 1e-37f}, {0, 3e38f}}, positive);
  const Measurement r = measure(
      in, RefFn::rsqrt, [](uint32_t a, bool ftz) { return approx::rsqrt_approx(kF32, a, ftz); }, Metric::rel, any,
      true);
  report("rsqrt.approx.f32", r, std::exp2(-22.9L), "rel");
}

TEST(F32Approx, Ex2FullRange) {
  const auto in = f32_inputs(4, kInputs, {0.0f, 1.0f, 128.0f, -126.0f, -149.0f, -150.0f, 127.99f},
                             {{-160, 130}, {-1, 1}, {-0x1p-20f, 0x1p-20f}});
  const Measurement r = measure(
      in, RefFn::ex2, [](uint32_t a, bool ftz) { return approx::ex2_approx(kF32, a, ftz); }, Metric::ulp, any, true);
  report("ex2.approx.f32", r, 2.0L, "ulp");
}

TEST(F32Approx, Lg2) {
  const auto in = f32_inputs(5, kInputs, kDense, {{0, 4}, {0.5f, 2}, {0, 1e-30f}, {0, 3e38f}}, positive);
  const Measurement r = measure(
      in, RefFn::lg2, [](uint32_t a, bool ftz) { return approx::lg2_approx(kF32, a, ftz); },
      Metric::abs_below_one_else_rel, any, true);
  report("lg2.approx.f32", r, std::exp2(-22.0L), "abs/rel");
}

void sincos_test(const char* name, RefFn fn, const Model& model, uint64_t seed) {
  const float two_pi = static_cast<float>(2 * kPi);
  const float hundred_pi = static_cast<float>(100 * kPi);
  const auto in =
      f32_inputs(seed, kInputs, {0.0f, 1.0f, static_cast<float>(kPi / 2), static_cast<float>(kPi), two_pi, 0x1p-126f},
                 {{-two_pi, two_pi}, {-hundred_pi, hundred_pi}, {-1e-3f, 1e-3f}}, within_100pi);
  const Measurement near = measure(
      in, fn, model, Metric::abs, [](long double x) { return std::fabs(x) <= 2 * kPi; }, true);
  report(name, near, std::exp2(-20.5L), "abs on [-2pi,2pi]", 500'000);
  const Measurement wide = measure(
      in, fn, model, Metric::abs, [](long double x) { return std::fabs(x) <= 100 * kPi; }, false);
  report(name, wide, std::exp2(-14.7L), "abs on [-100pi,100pi]");
}

TEST(F32Approx, Sin) {
  const Model sin = [](uint32_t a, bool ftz) { return approx::sin_approx(kF32, a, ftz); };
  sincos_test("sin.approx.f32", RefFn::sin, sin, 6);
  // The model's own claim (README): in the first quarter turn, |x| < pi/2,
  // sin keeps relative precision, down to the subnormals.
  const auto in = f32_inputs(16, 400000, {0.0f, 0x1p-126f, 1.0f}, {{-1.5f, 1.5f}, {-1e-3f, 1e-3f}, {-1e-30f, 1e-30f}});
  const Measurement small = measure(
      in, RefFn::sin, sin, Metric::rel,
      [](long double x) { return std::fabs(x) < kPi / 2 && std::fabs(x) >= 0x1p-126L; }, false);
  report("sin.approx.f32 |x| in [2^-126, pi/2)", small, std::exp2(-22.0L), "rel", 250'000);
}

TEST(F32Approx, Cos) {
  sincos_test(
      "cos.approx.f32", RefFn::cos, [](uint32_t a, bool ftz) { return approx::cos_approx(kF32, a, ftz); }, 7);
}

// Beyond the documented ranges: the reduction keeps its accuracy up to
// |x| = 2^20 (the model's own claim, README), and results stay in [-1, 1].
TEST(F32Approx, SinCosLargeArguments) {
  MaxErr near_2p20;
  for (uint32_t x : f32_inputs(8, 200000, {}, {{-0x1p20f, 0x1p20f}, {-1e9f, 1e9f}})) {
    const long double xv = value_of(kF32, x);
    if (!std::isfinite(xv)) continue;
    const uint64_t s = approx::sin_approx(kF32, x, false);
    const uint64_t c = approx::cos_approx(kF32, x, false);
    EXPECT_LE(std::fabs(value_of(kF32, s)), 1.0L) << std::hex << x;
    EXPECT_LE(std::fabs(value_of(kF32, c)), 1.0L) << std::hex << x;
    if (std::fabs(xv) <= 0x1p20L) {
      near_2p20.add(std::fabs(value_of(kF32, s) - mpfr_ref(RefFn::sin, xv)), x);
      near_2p20.add(std::fabs(value_of(kF32, c) - mpfr_ref(RefFn::cos, xv)), x);
    }
  }
  std::cout << "sin/cos.approx.f32 max abs err on [-2^20, 2^20] " << pow2_str(near_2p20.err) << " at 0x" << std::hex
            << near_2p20.at << std::dec << "\n";
  EXPECT_LE(near_2p20.err, std::exp2(-22.0L));
}

TEST(F32Approx, Tanh) {
  const auto in =
      f32_inputs(9, kInputs, {0.0f, 1.0f, 0x1p-8f, 16.0f, 9.0f, 0x1p-126f}, {{-10, 10}, {-1, 1}, {-0.01f, 0.01f}});
  const Measurement r = measure(
      in, RefFn::tanh, [](uint32_t a, bool) { return approx::tanh_approx(kF32, a); }, Metric::rel, any, false);
  report("tanh.approx.f32", r, std::exp2(-11.0L), "rel");
}

// div: a and b drawn independently; each .ftz result is compared with the
// full-range one as for the unary functions.
Measurement measure_div(bool full, uint64_t seed) {
  const auto as = f32_inputs(seed, kInputs, kDense, {{-4, 4}, {-1e30f, 1e30f}});
  const auto bs =
      f32_inputs(seed + 100, kInputs, kDense, {{-4, 4}, {-1e-30f, 1e-30f}}, full ? nullptr : within_div_approx_range);
  const auto div = full ? approx::div_full_f32 : approx::div_approx_f32;
  Measurement run;
  const long double max_finite = value_of(kF32, kF32.max_finite(false));
  const long double overflow = max_finite + ulp_of(kF32, max_finite) / 2;
  const size_t n = std::min(as.size(), bs.size());
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = as[i];
    const uint32_t b = bs[i];
    const long double av = value_of(kF32, a);
    const long double bv = value_of(kF32, b);
    if (!std::isfinite(av) || !std::isfinite(bv) || av == 0 || bv == 0) continue;
    // div.approx: "for |b| in [2^-126, 2^126], max 2 ulp"
    if (!full && (std::fabs(bv) < 0x1p-126L || std::fabs(bv) > 0x1p126L)) continue;
    const uint32_t y = div(a, b, false);
    if (!fp::is_subnormal(kF32, a) && !fp::is_subnormal(kF32, b)) {
      expect_ftz_consistent(a, y, div(a, b, true));
    }
    const long double ref = mpfr_div_ref(av, bv);
    if (std::fabs(ref) >= overflow) {
      EXPECT_EQ(y, kF32.inf(ref < 0)) << std::hex << a << " / " << b;
      continue;
    }
    ++run.checked;
    run.err.add(error_of(Metric::ulp, value_of(kF32, y), ref), (uint64_t{a} << 32) | b);
  }
  return run;
}

TEST(F32Approx, DivApprox) { report("div.approx.f32", measure_div(false, 10), 2.0L, "ulp"); }

TEST(F32Approx, DivFull) { report("div.full.f32", measure_div(true, 20), 2.0L, "ulp"); }

// f64 forms: random bit patterns over the whole range.
template <typename F>
MaxErr measure_f64(RefFn fn, F model, bool ftz, uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  MaxErr m;
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = rng();
    if (fn == RefFn::rsqrt) x &= ~fp::kF64.sign_mask();
    if (i % 8 == 0) {
      x &= 0x800fffffffffffffull;  // subnormals too
    } else if (i % 8 == 1) {
      x = (x & 0x800fffffffffffffull) | 0x3ff0000000000000ull;  // [1, 2)
    }
    const fp::Unpacked u = fp::unpack(fp::kF64, x);
    if (u.cls == fp::Class::nan || u.cls == fp::Class::inf || u.cls == fp::Class::zero) continue;
    const uint64_t y = model(x);
    if (ftz && u.cls == fp::Class::subnormal) {
      EXPECT_EQ(y, fp::kF64.inf(u.sign)) << std::hex << x;
      continue;
    }
    if (ftz) {
      EXPECT_EQ(y & 0xffffffffull, 0u) << std::hex << x;
    }
    const long double ref = mpfr_ref(fn, value_of(fp::kF64, x));
    const long double got = value_of(fp::kF64, y);
    if (std::fabs(ref) < 0x1p-1022L && ftz) {  // .ftz flushes subnormal results
      EXPECT_EQ(y & ~fp::kF64.sign_mask(), 0u) << std::hex << x;
      continue;
    }
    if (std::fabs(ref) >= 0x1p1024L) {
      EXPECT_TRUE(std::isinf(got)) << std::hex << x;
      continue;
    }
    m.add(std::fabs(got - ref) / std::fabs(ref), x);
  }
  return m;
}

TEST(F64Approx, RcpFtzTwentyBitMantissa) {
  const MaxErr m = measure_f64(RefFn::rcp, approx::rcp_approx_ftz_f64, true, 30, 400000);
  std::cout << "rcp.approx.ftz.f64 max rel err " << pow2_str(m.err) << " (20-bit mantissa; asserted bound 2^-19)\n";
  EXPECT_LE(m.err, std::exp2(-19.0L));
}

TEST(F64Approx, RsqrtFtzTwentyBitMantissa) {
  const MaxErr m = measure_f64(RefFn::rsqrt, approx::rsqrt_approx_ftz_f64, true, 31, 400000);
  std::cout << "rsqrt.approx.ftz.f64 max rel err " << pow2_str(m.err) << " (20-bit mantissa; asserted bound 2^-19)\n";
  EXPECT_LE(m.err, std::exp2(-19.0L));
}

TEST(F64Approx, RsqrtEmulated) {
  const MaxErr m = measure_f64(RefFn::rsqrt, approx::rsqrt_approx_f64, false, 32, 400000);
  std::cout << "rsqrt.approx.f64 max rel err " << pow2_str(m.err) << " (asserted bound 2^-52, i.e. about 1 ulp)\n";
  EXPECT_LE(m.err, std::exp2(-52.0L));
}

}  // namespace
}  // namespace ptxfu::test
