// add/sub: every integer type including the x2 packs, and .sat.s32.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

// Runs `in` over the binary sweep for its type against a lane reference.
template <class Ref>
void check_binary(const isa::Instr& in, const char* what, uint64_t seed, Ref lane_ref) {
  Tally tally(what);
  auto one = [&](uint64_t a, uint64_t b) {
    tally.expect(run(in, {a, b}).value, ref::lanewise(in.type, a, b, lane_ref), {a, b});
  };
  if (lane_count(in.type) == 2) {
    sweep_pairs_x2(seed, one);
  } else {
    sweep_pairs(lane_width(in.type), seed, one);
  }
  EXPECT_TRUE(tally.ok());
}

class AddSub : public ::testing::TestWithParam<Type> {};

TEST_P(AddSub, AddWraps) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  check_binary(instr(Op::add, t), "add", 1,
               [&](uint64_t a, uint64_t b) { return ref::modn(ref::num(a, n, s) + ref::num(b, n, s), n); });
}

TEST_P(AddSub, SubWraps) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  if (!instr(Op::sub, t).row) GTEST_SKIP() << "sub." << isa::info(t).name << " is not a PTX form (ptxas 13.0)";
  check_binary(instr(Op::sub, t), "sub", 2,
               [&](uint64_t a, uint64_t b) { return ref::modn(ref::num(a, n, s) - ref::num(b, n, s), n); });
}

INSTANTIATE_TEST_SUITE_P(Int, AddSub,
                         ::testing::Values(Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64,
                                           Type::u16x2, Type::s16x2),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

TEST(AddSubSat, S32Clamps) {
  check_binary(instr(Op::add, Type::s32, {Mod::sat}), "add.sat.s32", 3, [](uint64_t a, uint64_t b) {
    return ref::saturate(ref::num(a, 32, true) + ref::num(b, 32, true), 32, true);
  });
  check_binary(instr(Op::sub, Type::s32, {Mod::sat}), "sub.sat.s32", 4, [](uint64_t a, uint64_t b) {
    return ref::saturate(ref::num(a, 32, true) - ref::num(b, 32, true), 32, true);
  });
}

TEST(AddSubSat, HandWorked) {
  // add.sat.s32 c, c, 1 (the ISA example) at MAXINT stays at MAXINT.
  EXPECT_EQ(run(instr(Op::add, Type::s32, {Mod::sat}), {0x7fffffff, 1}).value, 0x7fffffffu);
  EXPECT_EQ(run(instr(Op::add, Type::s32), {0x7fffffff, 1}).value, 0x80000000u);
  EXPECT_EQ(run(instr(Op::sub, Type::s32, {Mod::sat}), {0x80000000, 1}).value, 0x80000000u);
  // The x2 lanes do not carry into each other: lane 0 is bits 15:0.
  EXPECT_EQ(run(instr(Op::add, Type::u16x2), {0x0001ffff, 0x00010001}).value, 0x00020000u);
  EXPECT_EQ(run(instr(Op::add, Type::s16x2), {0x0000ffff, 0x00010001}).value, 0x00010000u);
}

}  // namespace
}  // namespace ptxfu::inttest
