// abs/neg (s16 s32 s64) and min/max for every type, with .relu.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

// Unary operands: all 2^16 values (n = 16) or each 16-bit value at the bottom
// and at the top of the word; edges; 8-bit patterns; kRandom random.
template <class F>
void sweep_unary(int n, uint64_t seed, F f) {
  for (uint64_t x = 0; x < 65536; ++x) {
    f(x & mask(n));
    f((x << (n - 16)) & mask(n));
    f(~x & mask(n));
  }
  for (uint64_t x : edges(n)) f(x);
  for (uint64_t x : eight_bit(n)) f(x);
  Rng rng(seed);
  for (int i = 0; i < kRandom; ++i) f(rng.operand(n));
}

class AbsNeg : public ::testing::TestWithParam<Type> {};

TEST_P(AbsNeg, MatchesReference) {
  const Type t = GetParam();
  const int n = lane_width(t);
  Tally ta("abs"), tn("neg");
  sweep_unary(n, 60 + n, [&](uint64_t a) {
    const ref::s128 v = ref::num(a, n, true);
    ta.expect(run(instr(Op::abs, t, {}, 1), {a}).value, ref::modn(v < 0 ? -v : v, n), {a});
    tn.expect(run(instr(Op::neg, t, {}, 1), {a}).value, ref::modn(-v, n), {a});
  });
  EXPECT_TRUE(ta.ok());
  EXPECT_TRUE(tn.ok());
  const uint64_t min = uint64_t{1} << (n - 1);
  EXPECT_EQ(run(instr(Op::abs, t, {}, 1), {min}).value, min) << "abs(MIN) = MIN";
  EXPECT_EQ(run(instr(Op::neg, t, {}, 1), {min}).value, min) << "neg(MIN) = MIN";
}

INSTANTIATE_TEST_SUITE_P(Int, AbsNeg, ::testing::Values(Type::s16, Type::s32, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

using Case = std::tuple<Type, bool>;  // type, relu
class MinMax : public ::testing::TestWithParam<Case> {};

TEST_P(MinMax, MatchesReference) {
  // Not a structured binding: C++17 does not let a lambda capture one (clang rejects it).
  const Type t = std::get<0>(GetParam());
  const bool relu = std::get<1>(GetParam());
  const int n = lane_width(t);
  const bool s = is_signed(t);
  isa::Instr imin = instr(Op::min, t), imax = instr(Op::max, t);
  if (relu) {
    imin.mods |= isa::bit(Mod::relu);
    imax.mods |= isa::bit(Mod::relu);
  }
  auto pick = [&](bool want_max) {
    return [&, want_max](uint64_t a, uint64_t b) {
      const ref::s128 x = ref::num(a, n, s), y = ref::num(b, n, s);
      ref::s128 r = want_max ? (x > y ? x : y) : (x < y ? x : y);
      if (relu && r < 0) r = 0;
      return ref::modn(r, n);
    };
  };
  Tally tmin("min"), tmax("max");
  auto one = [&](uint64_t a, uint64_t b) {
    tmin.expect(run(imin, {a, b}).value, ref::lanewise(t, a, b, pick(false)), {a, b});
    tmax.expect(run(imax, {a, b}).value, ref::lanewise(t, a, b, pick(true)), {a, b});
  };
  if (lane_count(t) == 2) {
    sweep_pairs_x2(70 + relu, one);
  } else {
    sweep_pairs(n, 70 + n + relu, one);
  }
  EXPECT_TRUE(tmin.ok());
  EXPECT_TRUE(tmax.ok());
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (Type t : {Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64, Type::u16x2, Type::s16x2})
    v.emplace_back(t, false);
  v.emplace_back(Type::s32, true);
  v.emplace_back(Type::s16x2, true);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Int, MinMax, ::testing::ValuesIn(cases()), [](const auto& info) {
  return std::string(isa::info(std::get<0>(info.param)).name) + (std::get<1>(info.param) ? "_relu" : "");
});

TEST(MinMax, HandWorked) {
  EXPECT_EQ(run(instr(Op::min, Type::s32), {0xffffffff, 1}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::min, Type::u32), {0xffffffff, 1}).value, 1u);
  EXPECT_EQ(run(instr(Op::min, Type::s32, {Mod::relu}), {0xffffffff, 1}).value, 0u);
  EXPECT_EQ(run(instr(Op::max, Type::s32, {Mod::relu}), {0xffffffff, 0xfffffffe}).value, 0u);
  // s16x2: lane 0 = min(-1, 1) -> relu 0; lane 1 = min(5, 7) = 5.
  EXPECT_EQ(run(instr(Op::min, Type::s16x2, {Mod::relu}), {0x0005ffff, 0x00070001}).value, 0x00050000u);
  EXPECT_EQ(run(instr(Op::max, Type::u16x2), {0x0005ffff, 0x00070001}).value, 0x0007ffffu);
}

}  // namespace
}  // namespace ptxfu::inttest
