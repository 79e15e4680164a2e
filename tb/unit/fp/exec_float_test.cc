// exec::execute_float: instruction fields to core calls, x2 lanes, mixed
// precision, and the forms it must leave to other executors.
#include <initializer_list>

#include "exec/execute.h"
#include "fp_test_util.h"
#include "isa/forms.h"

namespace ptxfu::fptest {
namespace {

using isa::Mod;
using isa::Op;
using isa::Type;

isa::Instr make_instr(Op op, Type t, std::initializer_list<Mod> mods, int nsrc, Type t2 = Type::kCount) {
  isa::ModSet m = 0;
  for (Mod x : mods) m |= isa::bit(x);
  return isa::make_form(op, t, m, static_cast<unsigned>(nsrc), t2);
}

uint64_t run(const isa::Instr& in, std::initializer_list<uint64_t> src) {
  exec::Result r;
  EXPECT_TRUE(exec::execute_float(in, src.begin(), r));
  return r.value;
}

TEST(FpExecFloat, HalfX2Lanes) {
  // lane 0 = bits 15:0, lane 1 = bits 31:16
  const auto add = make_instr(Op::add, Type::f16x2, {}, 2);
  EXPECT_EQ(run(add, {0x3c004000, 0x40003c00}), 0x42004200u);
  const auto mul = make_instr(Op::mul, Type::bf16x2, {Mod::rn}, 2);
  EXPECT_EQ(run(mul, {0x40003f80, 0x3f804040}), 0x40004040u);
  // fma.rn.oob.f16x2: the OOB test is per lane.
  const auto fma = make_instr(Op::fma, Type::f16x2, {Mod::rn, Mod::oob}, 3);
  EXPECT_EQ(run(fma, {0x3c007ff7, 0x3c003c00, 0x3c003c00}), 0x40000000u);
  // fma.rn.relu.bf16x2
  const auto relu = make_instr(Op::fma, Type::bf16x2, {Mod::rn, Mod::relu}, 3);
  EXPECT_EQ(run(relu, {0xbf803f80, 0x3f803f80, 0x00000000}), 0x00003f80u);
  // fma.rn.sat.f16x2 from the design document's example line.
  const auto sat = make_instr(Op::fma, Type::f16x2, {Mod::rn, Mod::ftz, Mod::sat}, 3);
  EXPECT_EQ(run(sat, {0x3c004000, 0x40003c00, 0}), 0x3c003c00u);
  // min.NaN.xorsign.abs.bf16 0x7fc0 0xbf80 -> NaN (canonical).
  const auto mn = make_instr(Op::min, Type::bf16, {Mod::nan, Mod::xorsign, Mod::abs}, 2);
  EXPECT_EQ(run(mn, {0x7fc0, 0xbf80}), 0x7fffu);
  const auto neg = make_instr(Op::neg, Type::f16x2, {}, 1);
  EXPECT_EQ(run(neg, {0x7e003c00}), 0x7fffbc00u);
}

TEST(FpExecFloat, F32x2AndScalarsMatchCore) {
  Gen g(fp::kF32, 1);
  const auto fma = make_instr(Op::fma, Type::f32x2, {Mod::rz, Mod::ftz}, 3);
  fp::Policy p{fp::Rounding::rz};
  p.ftz = true;
  for (int i = 0; i < 1000; ++i) {
    uint64_t a[2], b[2], c[2];
    for (int l = 0; l < 2; ++l) g.triple(a[l], b[l], c[l]);
    const uint64_t want = fp::fma(fp::kF32, a[0], b[0], c[0], p) | (fp::fma(fp::kF32, a[1], b[1], c[1], p) << 32);
    ASSERT_EQ(run(fma, {a[0] | a[1] << 32, b[0] | b[1] << 32, c[0] | c[1] << 32}), want);
  }
  const auto div = make_instr(Op::div, Type::f64, {Mod::rp}, 2);
  EXPECT_EQ(run(div, {0x3ff0000000000000, 0x4008000000000000}), 0x3fd5555555555556u);
  const auto divm = make_instr(Op::div, Type::f64, {Mod::rm}, 2);
  EXPECT_EQ(run(divm, {0x3ff0000000000000, 0x4008000000000000}), 0x3fd5555555555555u);
  const auto sq = make_instr(Op::sqrt, Type::f32, {Mod::rn}, 1);
  EXPECT_EQ(run(sq, {0x40800000}), 0x40000000u);
  const auto rcp = make_instr(Op::rcp, Type::f32, {Mod::rn, Mod::ftz}, 1);
  EXPECT_EQ(run(rcp, {0x00000001}), 0x7f800000u);
  const auto mad = make_instr(Op::mad, Type::f32, {Mod::rn, Mod::sat}, 3);
  EXPECT_EQ(run(mad, {0x3f800000, 0x40000000, 0x3f800000}), 0x3f800000u);
  const auto max3 = make_instr(Op::max, Type::f32, {Mod::abs}, 3);
  EXPECT_EQ(run(max3, {0xc0a00000, 0x40000000, 0x3f800000}), 0x40a00000u);
  const auto abs = make_instr(Op::abs, Type::f64, {}, 1);
  EXPECT_EQ(run(abs, {0x8000000000000001}), 0x1u);
  const auto sub = make_instr(Op::sub, Type::f32, {Mod::rm}, 2);
  EXPECT_EQ(run(sub, {0x3f800000, 0x3f800000}), 0x80000000u);
}

TEST(FpExecFloat, MixedPrecision) {
  const auto fma = make_instr(Op::fma, Type::f32, {Mod::rn}, 3, Type::f16);
  EXPECT_EQ(run(fma, {0x3c00, 0x4000, 0x3f800000}), 0x40400000u);
  const auto add = make_instr(Op::add, Type::f32, {Mod::rz}, 2, Type::bf16);
  EXPECT_EQ(run(add, {0x3f80, 0x3f800000}), 0x40000000u);
  const auto sub = make_instr(Op::sub, Type::f32, {Mod::sat}, 2, Type::f16);
  EXPECT_EQ(run(sub, {0x3c00, 0x40000000}), 0x0u);
  // cvt(a) * cvt(b) + c rounds once: 2^-24 (f16 min subnormal) squared plus 1
  // is inexact in f32; rp rounds up.
  const auto fmap = make_instr(Op::fma, Type::f32, {Mod::rp}, 3, Type::f16);
  EXPECT_EQ(run(fmap, {0x0001, 0x0001, 0x3f800000}), 0x3f800001u);
}

TEST(FpExecFloat, LeavesOtherForms) {
  exec::Result r;
  const uint64_t src[3] = {0x3f800000, 0x3f800000, 0x3f800000};
  for (const auto& in :
       {make_instr(Op::div, Type::f32, {Mod::approx}, 2), make_instr(Op::div, Type::f32, {Mod::full, Mod::ftz}, 2),
        make_instr(Op::rcp, Type::f32, {Mod::approx}, 1), make_instr(Op::sqrt, Type::f32, {Mod::approx, Mod::ftz}, 1),
        make_instr(Op::rcp, Type::f64, {Mod::approx, Mod::ftz}, 1), make_instr(Op::rsqrt, Type::f32, {Mod::approx}, 1),
        make_instr(Op::sin, Type::f32, {Mod::approx}, 1), make_instr(Op::ex2, Type::f16, {Mod::approx}, 1),
        make_instr(Op::tanh, Type::bf16x2, {Mod::approx}, 1), make_instr(Op::add, Type::u32, {}, 2),
        make_instr(Op::min, Type::s16x2, {}, 2), make_instr(Op::mul, Type::s32, {Mod::lo}, 2)}) {
    EXPECT_FALSE(exec::execute_float(in, src, r));
  }
}

}  // namespace
}  // namespace ptxfu::fptest
