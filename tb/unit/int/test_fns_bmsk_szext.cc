// fns.b32, bmsk.{clamp,wrap}.b32 and szext.{clamp,wrap}.{u32,s32}, each
// against the ISA pseudo-code transcribed literally.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

// PTX ISA fns. base > 31 is undefined in the ISA; the model's documented
// choice is "not found" (0xffffffff), which is also what this scan yields
// once pos starts outside 0..31.
uint32_t ref_fns(uint32_t mask_, uint32_t base, int32_t offset) {
  uint32_t d = 0xffffffff;
  if (base > 31) return d;
  if (offset == 0) {
    if ((mask_ >> base) & 1) d = base;
    return d;
  }
  int64_t pos = base;
  int64_t count = (offset < 0 ? -static_cast<int64_t>(offset) : offset) - 1;
  const int inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if ((mask_ >> pos) & 1) {
      if (count == 0) {
        d = static_cast<uint32_t>(pos);
        break;
      }
      count = count - 1;
    }
    pos = pos + inc;
  }
  return d;
}

// PTX ISA bmsk, with the shifts done in 64 bits where C would overflow.
uint32_t ref_bmsk(uint32_t a, uint32_t b, bool clamp) {
  const uint32_t a1 = a & 0x1f;
  uint32_t mask0 = ~0u << a1;
  const uint32_t b1 = b & 0x1f;
  const uint32_t sum = a1 + b1;
  uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
  const bool sum_overflow = sum >= 32;
  bool pos_overflow = false, width_overflow = false;
  if (clamp) {
    if (a >= 32) {
      pos_overflow = true;
      mask0 = 0;
    }
    if (b >= 32) width_overflow = true;
  }
  if (sum_overflow || pos_overflow || width_overflow) {
    mask1 = 0;
  } else if (b1 == 0) {
    mask1 = ~0u;
  }
  return mask0 & ~mask1;
}

// PTX ISA szext.
uint32_t ref_szext(uint32_t a, uint32_t b, bool clamp, bool sgn) {
  const uint32_t b1 = b & 0x1f;
  const bool too_large = b >= 32 && clamp;
  const uint32_t mask_ = too_large ? 0 : ~0u << b1;
  const uint32_t sign_pos = (b1 - 1) & 0x1f;
  const bool sign_bit = (b1 == 0 || too_large || !sgn) ? false : ((a >> sign_pos) & 1) != 0;
  return (a & ~mask_) | (sign_bit ? mask_ : 0);
}

TEST(Fns, EveryBaseAndSmallOffset) {
  const isa::Instr in = instr(Op::fns, Type::b32, {}, 3);
  Tally tally("fns.b32");
  std::vector<uint64_t> masks = edges(32);
  Rng rng(140);
  for (int i = 0; i < 64; ++i) masks.push_back(rng.operand(32));
  for (uint64_t m : masks)
    for (uint32_t base = 0; base < 40; ++base)
      for (int32_t off = -40; off <= 40; ++off) {
        const auto uoff = static_cast<uint32_t>(off);
        tally.expect(run(in, {m, base, uoff}).value, ref_fns(static_cast<uint32_t>(m), base, off), {m, base, uoff});
      }
  for (int i = 0; i < kRandom; ++i) {
    const auto m = static_cast<uint32_t>(rng.operand(32));
    const auto base = static_cast<uint32_t>(rng.next() & 1 ? rng.next() % 32 : rng.operand(32));
    const auto off = static_cast<int32_t>(rng.next() & 1 ? rng.next() % 81 - 40 : rng.operand(32));
    tally.expect(run(in, {m, base, static_cast<uint32_t>(off)}).value, ref_fns(m, base, off),
                 {m, base, static_cast<uint32_t>(off)});
  }
  EXPECT_TRUE(tally.ok());
}

TEST(Fns, IsaExamples) {
  const isa::Instr in = instr(Op::fns, Type::b32, {}, 3);
  EXPECT_EQ(run(in, {0xaaaaaaaa, 3, 1}).value, 3u);
  EXPECT_EQ(run(in, {0xaaaaaaaa, 3, 0xffffffff}).value, 3u);
  EXPECT_EQ(run(in, {0xaaaaaaaa, 2, 1}).value, 3u);
  EXPECT_EQ(run(in, {0xaaaaaaaa, 2, 0xffffffff}).value, 1u);
  EXPECT_EQ(run(in, {0xaaaaaaaa, 2, 0}).value, 0xffffffffu);
  EXPECT_EQ(run(in, {0xffffffff, 32, 1}).value, 0xffffffffu);  // documented choice
}

class BmskSzext : public ::testing::TestWithParam<Mod> {};

TEST_P(BmskSzext, Bmsk) {
  const Mod mode = GetParam();
  const bool clamp = mode == Mod::clamp;
  const isa::Instr in = instr(Op::bmsk, Type::b32, {mode});
  Tally tally(clamp ? "bmsk.clamp" : "bmsk.wrap");
  for (uint32_t a = 0; a < 100; ++a)
    for (uint32_t b = 0; b < 100; ++b) tally.expect(run(in, {a, b}).value, ref_bmsk(a, b, clamp), {a, b});
  for (uint64_t a : edges(32))
    for (uint64_t b : edges(32)) {
      const auto a32 = static_cast<uint32_t>(a), b32 = static_cast<uint32_t>(b);
      tally.expect(run(in, {a, b}).value, ref_bmsk(a32, b32, clamp), {a, b});
    }
  Rng rng(150 + clamp);
  for (int i = 0; i < kRandom; ++i) {
    const auto a = static_cast<uint32_t>(rng.operand(32)), b = static_cast<uint32_t>(rng.operand(32));
    tally.expect(run(in, {a, b}).value, ref_bmsk(a, b, clamp), {a, b});
  }
  EXPECT_TRUE(tally.ok());
}

TEST_P(BmskSzext, Szext) {
  const Mod mode = GetParam();
  const bool clamp = mode == Mod::clamp;
  for (Type t : {Type::u32, Type::s32}) {
    const bool s = is_signed(t);
    const isa::Instr in = instr(Op::szext, t, {mode});
    Tally tally(std::string("szext.") + (clamp ? "clamp." : "wrap.") + std::string(isa::info(t).name));
    std::vector<uint64_t> as = edges(32);
    for (uint64_t x : eight_bit(32)) as.push_back(x);
    for (uint64_t a : as)
      for (uint32_t b = 0; b < 100; ++b)
        tally.expect(run(in, {a, b}).value, ref_szext(static_cast<uint32_t>(a), b, clamp, s), {a, b});
    Rng rng(160 + clamp + 2 * s);
    for (int i = 0; i < kRandom; ++i) {
      const auto a = static_cast<uint32_t>(rng.operand(32));
      const auto b = static_cast<uint32_t>(rng.next() & 1 ? rng.next() % 100 : rng.operand(32));
      tally.expect(run(in, {a, b}).value, ref_szext(a, b, clamp, s), {a, b});
    }
    EXPECT_TRUE(tally.ok());
  }
}

INSTANTIATE_TEST_SUITE_P(Int, BmskSzext, ::testing::Values(Mod::clamp, Mod::wrap),
                         [](const auto& info) { return std::string(info.param == Mod::clamp ? "clamp" : "wrap"); });

TEST(BmskSzext, HandWorked) {
  EXPECT_EQ(run(instr(Op::bmsk, Type::b32, {Mod::wrap}), {1, 2}).value, 6u);  // ISA example
  EXPECT_EQ(run(instr(Op::bmsk, Type::b32, {Mod::clamp}), {4, 40}).value, 0xfffffff0u);
  EXPECT_EQ(run(instr(Op::bmsk, Type::b32, {Mod::wrap}), {4, 40}).value, 0x00000ff0u);
  EXPECT_EQ(run(instr(Op::bmsk, Type::b32, {Mod::clamp}), {32, 4}).value, 0u);
  EXPECT_EQ(run(instr(Op::szext, Type::u32, {Mod::wrap}), {0xffffffff, 0}).value, 0u);  // ISA
  EXPECT_EQ(run(instr(Op::szext, Type::s32, {Mod::clamp}), {0x000000f0, 8}).value, 0xfffffff0u);
  EXPECT_EQ(run(instr(Op::szext, Type::s32, {Mod::clamp}), {0x000000f0, 40}).value, 0xf0u);
  EXPECT_EQ(run(instr(Op::szext, Type::s32, {Mod::wrap}), {0x000000f0, 40}).value, 0xfffffff0u);
  EXPECT_EQ(run(instr(Op::szext, Type::u32, {Mod::clamp}), {0xfffffff0, 8}).value, 0xf0u);
}

}  // namespace
}  // namespace ptxfu::inttest
