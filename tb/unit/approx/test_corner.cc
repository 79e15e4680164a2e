// Corner-case tables of the f32/f64 special functions, exact points, and the
// executor's dispatch. The rows for -Inf, -normal, -0.0, +0.0, +Inf and NaN
// are the PTX ISA 9.1 tables of each instruction. The f32 tables have no
// subnormal rows; those here follow from the PTX rule "By default, subnormal
// numbers are supported. <op>.ftz.f32 flushes subnormal inputs and results to
// sign-preserving zero": with .ftz a subnormal input behaves as the zero of
// its sign, without it the value is used (lg2(2^-149) = -149). tanh: "The
// subnormal inputs gets passed through to the output".
#include <gtest/gtest.h>

#include "approx/mufu.h"
#include "exec/execute.h"

namespace ptxfu::test {
namespace {

using fp::kF32;

constexpr uint64_t kNaN = 0x7fffffff;
constexpr uint64_t kNegInf = 0xff800000, kPosInf = 0x7f800000;
constexpr uint64_t kNegZero = 0x80000000, kPosZero = 0;
constexpr uint64_t kNegSub = 0x80000123, kPosSub = 0x00400000;
constexpr uint64_t kOne = 0x3f800000, kNegOne = 0xbf800000;
constexpr uint64_t kSNaN = 0x7f800001, kNegQNaN = 0xffc00000;

using Fn = uint64_t (*)(const fp::Format&, uint64_t, bool);

struct Row {
  uint64_t in, out;
};

void expect_table(const char* name, Fn fn, bool ftz, std::initializer_list<Row> rows) {
  for (const Row& r : rows) {
    EXPECT_EQ(fn(kF32, r.in, ftz), r.out) << name << (ftz ? ".ftz" : "") << " input 0x" << std::hex << r.in;
  }
}

TEST(F32Corner, Sin) {
  for (bool ftz : {false, true}) {
    expect_table("sin", approx::sin_approx, ftz,
                 {{kNegInf, kNaN},
                  {kNegZero, kNegZero},
                  {kPosZero, kPosZero},
                  {kPosInf, kNaN},
                  {kSNaN, kNaN},
                  {kNegQNaN, kNaN}});
  }
  // subnormals: flushed with .ftz; without it sin(x) = x to f32 precision
  expect_table("sin", approx::sin_approx, true, {{kNegSub, kNegZero}, {kPosSub, kPosZero}});
  expect_table(
      "sin", approx::sin_approx, false,
      {{kNegSub, kNegSub}, {kPosSub, kPosSub}, {0x00000001, 0x00000001}, {0x2f800000, 0x2f800000} /* sin(2^-32) */});
}

TEST(F32Corner, Cos) {
  for (bool ftz : {false, true}) {
    expect_table("cos", approx::cos_approx, ftz,
                 {{kNegInf, kNaN},
                  {kNegSub, kOne},
                  {kNegZero, kOne},
                  {kPosZero, kOne},
                  {kPosSub, kOne},
                  {kPosInf, kNaN},
                  {kSNaN, kNaN}});
  }
}

TEST(F32Corner, Lg2) {
  expect_table("lg2", approx::lg2_approx, true,
               {{kNegInf, kNaN},
                {kNegSub, kNegInf},
                {kNegZero, kNegInf},
                {kPosZero, kNegInf},
                {kPosSub, kNegInf},
                {kPosInf, kPosInf},
                {kSNaN, kNaN},
                {kNegOne, kNaN},
                {kOne, kPosZero},
                {0x41000000, 0x40400000} /* lg2(8) = 3 */,
                {0x3e800000, 0xc0000000} /* lg2(1/4) = -2 */});
  expect_table("lg2", approx::lg2_approx, false,
               {{kNegInf, kNaN},
                {kNegSub, kNaN},
                {kNegZero, kNegInf},
                {kPosZero, kNegInf},
                {0x00000001, 0xc3150000} /* lg2(2^-149) = -149 */,
                {kPosInf, kPosInf},
                {kOne, kPosZero}});
}

TEST(F32Corner, Ex2) {
  for (bool ftz : {false, true}) {
    expect_table("ex2", approx::ex2_approx, ftz,
                 {{kNegInf, kPosZero},
                  {kNegSub, kOne},
                  {kNegZero, kOne},
                  {kPosZero, kOne},
                  {kPosSub, kOne},
                  {kPosInf, kPosInf},
                  {kSNaN, kNaN},
                  {0x43000000, kPosInf},
                  {0x42fe0000, 0x7f000000} /* 2^127 */,
                  {0xc2fc0000, 0x00800000} /* 2^-126 */,
                  {0x40400000, 0x41000000} /* 2^3 = 8 */});
  }
  // 2^-149: the smallest subnormal without .ftz, +0 with it.
  EXPECT_EQ(approx::ex2_approx(kF32, 0xc3150000, false), 0x00000001u);
  EXPECT_EQ(approx::ex2_approx(kF32, 0xc3150000, true), 0x00000000u);
}

TEST(F32Corner, Tanh) {
  const auto t = [](const fp::Format& f, uint64_t a, bool) { return approx::tanh_approx(f, a); };
  expect_table("tanh", t, false,
               {{kNegInf, kNegOne},
                {kNegSub, kNegSub},
                {kNegZero, kNegZero},
                {kPosZero, kPosZero},
                {kPosSub, kPosSub},
                {kPosInf, kOne},
                {kSNaN, kNaN},
                {0x41a00000, kOne} /* tanh(20) rounds to 1 */});
}

TEST(F32Corner, Rcp) {
  expect_table("rcp", approx::rcp_approx, true,
               {{kNegInf, kNegZero},
                {kNegSub, kNegInf},
                {kNegZero, kNegInf},
                {kPosZero, kPosInf},
                {kPosSub, kPosInf},
                {kPosInf, kPosZero},
                {kSNaN, kNaN},
                {kOne, kOne},
                {0x40000000, 0x3f000000},
                {0x7f000000, 0x00000000} /* 1/2^127 flushed */,
                {0xfe800000, 0x80800000} /* -1/2^126 */});
  expect_table("rcp", approx::rcp_approx, false,
               {{kNegZero, kNegInf},
                {kPosZero, kPosInf},
                {kPosInf, kPosZero},
                {0x7f000000, 0x00400000} /* 1/2^127 = 2^-127, subnormal */,
                {0x00400000, 0x7f000000} /* 1/2^-127 */,
                {0x00000001, kPosInf}});
}

TEST(F32Corner, Sqrt) {
  expect_table("sqrt", approx::sqrt_approx, true,
               {{kNegInf, kNaN},
                {kNegOne, kNaN},
                {kNegSub, kNegZero},
                {kNegZero, kNegZero},
                {kPosZero, kPosZero},
                {kPosSub, kPosZero},
                {kPosInf, kPosInf},
                {kSNaN, kNaN},
                {0x40800000, 0x40000000} /* sqrt(4) = 2 */,
                {kOne, kOne}});
  expect_table("sqrt", approx::sqrt_approx, false,
               {{kNegSub, kNaN}, {kNegZero, kNegZero}, {0x00000001, 0x1a3504f3} /* 2^-74.5 */});
}

TEST(F32Corner, Rsqrt) {
  expect_table("rsqrt", approx::rsqrt_approx, true,
               {{kNegInf, kNaN},
                {kNegOne, kNaN},
                {kNegSub, kNegInf},
                {kNegZero, kNegInf},
                {kPosZero, kPosInf},
                {kPosSub, kPosInf},
                {kPosInf, kPosZero},
                {kSNaN, kNaN},
                {0x40800000, 0x3f000000} /* 1/sqrt(4) */,
                {kOne, kOne}});
  expect_table("rsqrt", approx::rsqrt_approx, false, {{kNegSub, kNaN}, {kPosSub, 0x5f3504f3}});
}

TEST(F32Corner, DivFull) {
  for (bool ftz : {false, true}) {
    const auto d = [ftz](uint32_t a, uint32_t b) { return approx::div_full_f32(a, b, ftz); };
    EXPECT_EQ(d(0, 0), kNaN);
    EXPECT_EQ(d(0x7f800000, 0xff800000), kNaN);
    EXPECT_EQ(d(0x3f800000, 0), kPosInf);
    EXPECT_EQ(d(0xbf800000, 0), kNegInf);
    EXPECT_EQ(d(0x3f800000, 0xff800000), kNegZero);
    EXPECT_EQ(d(0xff800000, 0x40000000), kNegInf);
    EXPECT_EQ(d(0x7fc00000, 0x3f800000), kNaN);
    EXPECT_EQ(d(0x40c00000, 0x40400000), 0x40000000u);  // 6 / 3 = 2
    // full range: |b| > 2^126 still divides
    EXPECT_EQ(d(0x7f000000, 0x7f000000), 0x3f800000u);
  }
  EXPECT_EQ(approx::div_full_f32(0x00000001, 0x3f000000, false), 0x00000002u);
  EXPECT_EQ(approx::div_full_f32(0x00000001, 0x3f000000, true), 0x00000000u);
}

TEST(F32Corner, DivApprox) {
  for (bool ftz : {false, true}) {
    const auto d = [ftz](uint32_t a, uint32_t b) { return approx::div_approx_f32(a, b, ftz); };
    EXPECT_EQ(d(0x40c00000, 0x40400000), 0x40000000u);  // 6 / 3 = 2
    // 2^126 < |b| < 2^128: the reciprocal flushes, giving 0 (NaN for infinite a)
    EXPECT_EQ(d(0x3f800000, 0x7f000000), 0u);
    EXPECT_EQ(d(0x7f800000, 0x7f000000), kNaN);
    EXPECT_EQ(d(0x3f800000, 0), kPosInf);
    EXPECT_EQ(d(0, 0), kNaN);
  }
}

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: "Input a[63:32] -> Result
// d[63:32]" tables, "Input NaNs map to a canonical NaN with encoding
// 0x7fffffff00000000", "Subnormal inputs and results are flushed to
// sign-preserving zero".
TEST(F64Corner, RcpRsqrt) {
  const uint64_t nan = 0x7fffffff00000000;
  const uint64_t pinf = 0x7ff0000000000000, ninf = 0xfff0000000000000;
  const uint64_t one = 0x3ff0000000000000;
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0), pinf);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x8000000000000000), ninf);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x800fffffffffffff), ninf);  // subnormal flushed
  EXPECT_EQ(approx::rcp_approx_ftz_f64(pinf), 0u);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(ninf), 0x8000000000000000u);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x7ff8000000000000), nan);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(one), one);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x4000000000000000), 0x3fe0000000000000u);
  // only the upper word is read: the low 32 bits do not change the result
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x3ff80000ffffffff), approx::rcp_approx_ftz_f64(0x3ff8000000000000));
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x7fe0000000000000), 0u);  // 2^-1023 flushed

  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0), pinf);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x8000000000000000), ninf);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x800fffffffffffff), ninf);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(pinf), 0u);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(ninf), nan);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0xbff0000000000000), nan);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x4010000000000000), 0x3fe0000000000000u);

  // the upper word decides: NaN payload only in the low word reads as infinity
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x7ff0000000000001), 0u);
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0xfff0000000000001), 0x8000000000000000u);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x7ff0000000000001), 0u);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x7ff8000000000000), nan);
  // upper word zero, low word nonzero: a zero (and a subnormal) of 1.11.20
  EXPECT_EQ(approx::rcp_approx_ftz_f64(0x00000000ffffffff), pinf);
  EXPECT_EQ(approx::rsqrt_approx_ftz_f64(0x80000000ffffffff), ninf);

  const uint64_t nan64 = 0x7fffffffffffffff;
  EXPECT_EQ(approx::rsqrt_approx_f64(0), pinf);
  EXPECT_EQ(approx::rsqrt_approx_f64(0x8000000000000000), ninf);
  EXPECT_EQ(approx::rsqrt_approx_f64(pinf), 0u);
  EXPECT_EQ(approx::rsqrt_approx_f64(0xbff0000000000000), nan64);
  EXPECT_EQ(approx::rsqrt_approx_f64(0x7ff0000000000001), nan64);
  EXPECT_EQ(approx::rsqrt_approx_f64(0x4010000000000000), 0x3fe0000000000000u);
  EXPECT_EQ(approx::rsqrt_approx_f64(0x0000000000000001), 0x6180000000000000u);  // 2^537
  EXPECT_EQ(approx::rsqrt_approx_f64(0x0000000000000002), 0x6176a09e667f3bcdu);  // 2^536.5
}

isa::Instr make(isa::Op op, isa::Type t, std::initializer_list<isa::Mod> mods, int nsrc = 1) {
  isa::Instr in;
  in.op = op;
  in.type = t;
  in.type2 = t;
  for (isa::Mod m : mods) in.mods |= isa::bit(m);
  in.num_src = static_cast<uint8_t>(nsrc);
  return in;
}

TEST(ExecApprox, ClaimsOnlyApproxForms) {
  using isa::Mod;
  using isa::Op;
  using isa::Type;
  const uint64_t src[2] = {0x40400000, 0x40000000};  // 3, 2
  exec::Result r;
  EXPECT_FALSE(exec::execute_approx(make(Op::rcp, Type::f32, {Mod::rn}), src, r));
  EXPECT_FALSE(exec::execute_approx(make(Op::sqrt, Type::f32, {Mod::rn}), src, r));
  EXPECT_FALSE(exec::execute_approx(make(Op::div, Type::f32, {Mod::rn}, 2), src, r));
  EXPECT_FALSE(exec::execute_approx(make(Op::rcp, Type::f64, {Mod::rn}), src, r));
  EXPECT_FALSE(exec::execute_approx(make(Op::add, Type::f32, {}), src, r));
  EXPECT_FALSE(exec::execute_approx(make(Op::fma, Type::f16, {Mod::rn}), src, r));

  struct Case {
    isa::Instr in;
    uint64_t want;
  };
  const Case cases[] = {
      {make(Op::sin, Type::f32, {Mod::approx}), approx::sin_approx(kF32, src[0], false)},
      {make(Op::cos, Type::f32, {Mod::approx, Mod::ftz}), approx::cos_approx(kF32, src[0], true)},
      {make(Op::lg2, Type::f32, {Mod::approx}), approx::lg2_approx(kF32, src[0], false)},
      {make(Op::ex2, Type::f32, {Mod::approx, Mod::ftz}), approx::ex2_approx(kF32, src[0], true)},
      {make(Op::tanh, Type::f32, {Mod::approx}), approx::tanh_approx(kF32, src[0])},
      {make(Op::rcp, Type::f32, {Mod::approx}), approx::rcp_approx(kF32, src[0], false)},
      {make(Op::sqrt, Type::f32, {Mod::approx, Mod::ftz}), approx::sqrt_approx(kF32, src[0], true)},
      {make(Op::rsqrt, Type::f32, {Mod::approx}), approx::rsqrt_approx(kF32, src[0], false)},
      {make(Op::div, Type::f32, {Mod::approx}, 2), approx::div_approx_f32(0x40400000, 0x40000000, false)},
      {make(Op::div, Type::f32, {Mod::full, Mod::ftz}, 2), approx::div_full_f32(0x40400000, 0x40000000, true)},
      {make(Op::rcp, Type::f64, {Mod::approx, Mod::ftz}), approx::rcp_approx_ftz_f64(src[0])},
      {make(Op::rsqrt, Type::f64, {Mod::approx, Mod::ftz}), approx::rsqrt_approx_ftz_f64(src[0])},
      {make(Op::rsqrt, Type::f64, {Mod::approx}), approx::rsqrt_approx_f64(src[0])},
  };
  for (const Case& c : cases) {
    exec::Result out;
    ASSERT_TRUE(exec::execute_approx(c.in, src, out)) << static_cast<int>(c.in.op);
    EXPECT_EQ(out.value, c.want) << static_cast<int>(c.in.op);
  }
  // 3 / 2 = 1.5 exactly through both division forms
  exec::Result q;
  ASSERT_TRUE(exec::execute_approx(make(Op::div, Type::f32, {Mod::full}, 2), src, q));
  EXPECT_EQ(q.value, 0x3fc00000u);
}

}  // namespace
}  // namespace ptxfu::test
