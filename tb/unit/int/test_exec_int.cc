// execute_int as a dispatcher: which instructions it claims, and that every
// integer op reaches the unit.
#include "int_harness.h"

namespace ptxfu::inttest {
namespace {

TEST(ExecInt, LeavesFloatingTypesAlone) {
  for (Type t : {Type::f16, Type::f16x2, Type::bf16, Type::bf16x2, Type::f32, Type::f32x2, Type::f64})
    for (Op op : {Op::add, Op::sub, Op::mul, Op::mad, Op::min, Op::max, Op::abs, Op::neg, Op::div, Op::fma})
      EXPECT_FALSE(run(instr(op, t), {0x3c00, 0x3c00, 0}).claimed)
          << isa::info(t).name << " op " << static_cast<int>(op);
}

TEST(ExecInt, UnclaimedLeavesResultUntouched) {
  const Out f = run(instr(Op::add, Type::f32), {1, 2});
  EXPECT_EQ(f.value, kUntouched);
  EXPECT_TRUE(f.carry);
  const Out o = run(instr(Op::rcp, Type::u32), {1});
  EXPECT_EQ(o.value, kUntouched);
}

TEST(ExecInt, LeavesNonIntegerOpsAlone) {
  for (Op op : {Op::fma, Op::rcp, Op::sqrt, Op::rsqrt, Op::sin, Op::cos, Op::lg2, Op::ex2, Op::tanh})
    EXPECT_FALSE(run(instr(op, Type::u32), {1, 2, 3}).claimed) << static_cast<int>(op);
}

TEST(ExecInt, ClaimsEveryIntegerOp) {
  struct Row {
    Op op;
    Type t;
    int nsrc;
    std::initializer_list<Mod> mods = {};
    Type t2 = Type::kCount;  // the second type suffix of dp4a/dp2a
  };
  const Row rows[] = {
      {Op::add, Type::u32, 2},
      {Op::sub, Type::s64, 2},
      {Op::mul, Type::u16, 2, {Mod::lo}},
      {Op::mad, Type::s32, 3, {Mod::hi}},
      {Op::div, Type::u64, 2},
      {Op::rem, Type::s16, 2},
      {Op::abs, Type::s32, 1},
      {Op::neg, Type::s16, 1},
      {Op::min, Type::u16x2, 2},
      {Op::max, Type::s16x2, 2},
      {Op::popc, Type::b32, 1},
      {Op::clz, Type::b64, 1},
      {Op::bfind, Type::s64, 1},
      {Op::brev, Type::b32, 1},
      {Op::bfe, Type::u32, 3},
      {Op::bfi, Type::b64, 4},
      {Op::fns, Type::b32, 3},
      {Op::bmsk, Type::b32, 2, {Mod::clamp}},
      {Op::szext, Type::s32, 2, {Mod::wrap}},
      {Op::dp4a, Type::u32, 3, {}, Type::s32},
      {Op::dp2a, Type::s32, 3, {Mod::lo}, Type::u32},
      {Op::addc, Type::u32, 2},
      {Op::subc, Type::s32, 2},
      {Op::madc, Type::u64, 3, {Mod::lo}},
      {Op::mul24, Type::u32, 2, {Mod::hi}},
      {Op::mad24, Type::s32, 3, {Mod::lo}},
      {Op::sad, Type::u64, 3},
  };
  for (const Row& r : rows) {
    const Out o = run(instr(r.op, r.t, r.mods, r.nsrc, r.t2), {1, 2, 3, 4});
    EXPECT_TRUE(o.claimed) << static_cast<int>(r.op);
    EXPECT_FALSE(o.carry) << "no .cc, no carry out";
  }
}

TEST(ExecInt, ResultIsZeroExtendedToDestinationWidth) {
  EXPECT_EQ(run(instr(Op::neg, Type::s16, {}, 1), {1}).value, 0xffffu);
  EXPECT_EQ(run(instr(Op::sub, Type::s32), {0, 1}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::mul, Type::s16, {Mod::wide}), {0xffff, 1}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::bfe, Type::s32, {}, 3), {0x80000000, 31, 1}).value, 0xffffffffu);
  // Bits above the operand width are ignored.
  EXPECT_EQ(run(instr(Op::add, Type::u16), {0x1ffff, 0x10001}).value, 0u);
  EXPECT_EQ(run(instr(Op::popc, Type::b32, {}, 1), {0xff00000000ull}).value, 0u);
}

}  // namespace
}  // namespace ptxfu::inttest
