// div/rem for u16 ... s64, with the documented division-by-zero values.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

// Truncating division; by zero: quotient all ones, remainder a (the
// documented choice in src/int/int_ops.h).
uint64_t ref_div(uint64_t a, uint64_t b, int n, bool s) {
  if ((b & mask(n)) == 0) return mask(n);
  return ref::modn(ref::num(a, n, s) / ref::num(b, n, s), n);
}

uint64_t ref_rem(uint64_t a, uint64_t b, int n, bool s) {
  if ((b & mask(n)) == 0) return a & mask(n);
  return ref::modn(ref::num(a, n, s) % ref::num(b, n, s), n);
}

class DivRem : public ::testing::TestWithParam<Type> {};

TEST_P(DivRem, Div) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  Tally tally("div." + std::string(isa::info(t).name));
  sweep_pairs(n, 30 + n, [&](uint64_t a, uint64_t b) {
    tally.expect(run(instr(Op::div, t), {a, b}).value, ref_div(a, b, n, s), {a, b});
  });
  EXPECT_TRUE(tally.ok());
}

TEST_P(DivRem, Rem) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  Tally tally("rem." + std::string(isa::info(t).name));
  sweep_pairs(n, 40 + n, [&](uint64_t a, uint64_t b) {
    tally.expect(run(instr(Op::rem, t), {a, b}).value, ref_rem(a, b, n, s), {a, b});
  });
  EXPECT_TRUE(tally.ok());
}

// a == q*b + r with |r| < |b| and r of a's sign, checked without dividing.
TEST_P(DivRem, QuotientAndRemainderAgree) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  Rng rng(50 + n);
  int bad = 0;
  for (int i = 0; i < kRandom; ++i) {
    const uint64_t a = rng.operand(n), b = rng.operand(n);
    if (b == 0 || (s && a == (uint64_t{1} << (n - 1)) && b == mask(n))) continue;
    const ref::s128 q = ref::num(run(instr(Op::div, t), {a, b}).value, n, s);
    const ref::s128 r = ref::num(run(instr(Op::rem, t), {a, b}).value, n, s);
    const ref::s128 A = ref::num(a, n, s), B = ref::num(b, n, s);
    const ref::s128 absr = r < 0 ? -r : r, absb = B < 0 ? -B : B;
    if (q * B + r != A || absr >= absb || (r != 0 && (r < 0) != (A < 0))) ++bad;
  }
  EXPECT_EQ(bad, 0);
}

INSTANTIATE_TEST_SUITE_P(Int, DivRem,
                         ::testing::Values(Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

TEST(DivRem, DocumentedCorners) {
  EXPECT_EQ(run(instr(Op::div, Type::u32), {1234, 0}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::rem, Type::u32), {1234, 0}).value, 1234u);
  EXPECT_EQ(run(instr(Op::div, Type::s32), {0x80000000, 0}).value, 0xffffffffu);  // -1
  EXPECT_EQ(run(instr(Op::div, Type::s16), {5, 0}).value, 0xffffu);
  EXPECT_EQ(run(instr(Op::rem, Type::s64), {0x8000000000000000ull, 0}).value, 0x8000000000000000ull);
  // MIN / -1 wraps to MIN; MIN % -1 = 0.
  EXPECT_EQ(run(instr(Op::div, Type::s32), {0x80000000, 0xffffffff}).value, 0x80000000u);
  EXPECT_EQ(run(instr(Op::rem, Type::s32), {0x80000000, 0xffffffff}).value, 0u);
  EXPECT_EQ(run(instr(Op::div, Type::s64), {0x8000000000000000ull, ~0ull}).value, 0x8000000000000000ull);
  // Truncation toward zero: -7 / 2 = -3, -7 % 2 = -1.
  EXPECT_EQ(run(instr(Op::div, Type::s32), {0xfffffff9, 2}).value, 0xfffffffdu);
  EXPECT_EQ(run(instr(Op::rem, Type::s32), {0xfffffff9, 2}).value, 0xffffffffu);
}

}  // namespace
}  // namespace ptxfu::inttest
