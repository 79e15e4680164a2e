// popc, clz, brev (.b32 .b64) and bfind (.u32 .u64 .s32 .s64, .shiftamt),
// each against a bit-by-bit loop written from the ISA pseudo-code.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

bool bit(uint64_t a, int i) { return ((a >> i) & 1) != 0; }

uint64_t ref_popc(uint64_t a, int n) {
  uint64_t d = 0;
  for (int i = 0; i < n; ++i) d += bit(a, i);
  return d;
}

uint64_t ref_clz(uint64_t a, int n) {
  uint64_t d = 0;
  for (int i = n - 1; i >= 0 && !bit(a, i); --i) ++d;
  return d;
}

uint64_t ref_brev(uint64_t a, int n) {
  uint64_t d = 0;
  for (int i = 0; i < n; ++i)
    if (bit(a, i)) d |= uint64_t{1} << (n - 1 - i);
  return d;
}

// ISA bfind: negative signed inputs are complemented, then the highest set
// bit is searched; .shiftamt returns msb - position.
uint64_t ref_bfind(uint64_t a, int n, bool sgn, bool shiftamt) {
  const int msb = n - 1;
  if (sgn && bit(a, msb)) a = ~a;
  uint64_t d = 0xffffffff;
  for (int i = msb; i >= 0; --i)
    if (bit(a, i)) {
      d = static_cast<uint64_t>(i);
      break;
    }
  if (shiftamt && d != 0xffffffff) d = static_cast<uint64_t>(msb) - d;
  return d;
}

// Unary operands: each 16-bit value at the bottom, at the top and
// complemented; edges; 8-bit patterns; kRandom random.
template <class F>
void sweep_unary(int n, uint64_t seed, F f) {
  for (uint64_t x = 0; x < 65536; ++x) {
    f(x);
    f(x << (n - 16));
    f(~x & mask(n));
  }
  for (uint64_t x : edges(n)) f(x);
  for (uint64_t x : eight_bit(n)) f(x);
  Rng rng(seed);
  for (int i = 0; i < kRandom; ++i) f(rng.operand(n));
}

class BitsB : public ::testing::TestWithParam<Type> {};

TEST_P(BitsB, PopcClzBrev) {
  const Type t = GetParam();
  const int n = lane_width(t);
  Tally tp("popc"), tc("clz"), tb("brev");
  sweep_unary(n, 80 + n, [&](uint64_t a) {
    tp.expect(run(instr(Op::popc, t, {}, 1), {a}).value, ref_popc(a, n), {a});
    tc.expect(run(instr(Op::clz, t, {}, 1), {a}).value, ref_clz(a, n), {a});
    tb.expect(run(instr(Op::brev, t, {}, 1), {a}).value, ref_brev(a, n), {a});
  });
  EXPECT_TRUE(tp.ok());
  EXPECT_TRUE(tc.ok());
  EXPECT_TRUE(tb.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, BitsB, ::testing::Values(Type::b32, Type::b64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

class Bfind : public ::testing::TestWithParam<Type> {};

TEST_P(Bfind, PlainAndShiftamt) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  Tally tf("bfind"), ts("bfind.shiftamt");
  sweep_unary(n, 90 + n, [&](uint64_t a) {
    tf.expect(run(instr(Op::bfind, t, {}, 1), {a}).value, ref_bfind(a, n, s, false), {a});
    ts.expect(run(instr(Op::bfind, t, {Mod::shiftamt}, 1), {a}).value, ref_bfind(a, n, s, true), {a});
  });
  EXPECT_TRUE(tf.ok());
  EXPECT_TRUE(ts.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Bfind, ::testing::Values(Type::u32, Type::u64, Type::s32, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

TEST(BitCount, HandWorked) {
  EXPECT_EQ(run(instr(Op::popc, Type::b64, {}, 1), {~0ull}).value, 64u);
  EXPECT_EQ(run(instr(Op::clz, Type::b32, {}, 1), {0}).value, 32u);
  EXPECT_EQ(run(instr(Op::clz, Type::b64, {}, 1), {1}).value, 63u);
  EXPECT_EQ(run(instr(Op::brev, Type::b32, {}, 1), {1}).value, 0x80000000u);
  EXPECT_EQ(run(instr(Op::bfind, Type::u32, {}, 1), {0}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::bfind, Type::s32, {}, 1), {0xffffffff}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::bfind, Type::s32, {}, 1), {0x80000000}).value, 30u);
  EXPECT_EQ(run(instr(Op::bfind, Type::u32, {Mod::shiftamt}, 1), {1}).value, 31u);
  EXPECT_EQ(run(instr(Op::bfind, Type::s64, {Mod::shiftamt}, 1), {0x00000000ffffffffull}).value, 32u);
}

}  // namespace
}  // namespace ptxfu::inttest
