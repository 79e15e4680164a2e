// dp4a and dp2a .lo/.hi for every .u32/.s32 combination of a and b.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

int64_t part(uint32_t w, int i, int bits, bool sgn) {
  const int64_t v = (w >> (i * bits)) & ((int64_t{1} << bits) - 1);
  return (sgn && v >= (int64_t{1} << (bits - 1))) ? v - (int64_t{1} << bits) : v;
}

// PTX ISA dp4a: d = c + sum Va[i] * Vb[i] over the 4 bytes.
uint32_t ref_dp4a(uint32_t a, uint32_t b, uint32_t c, bool sa, bool sb) {
  int64_t d = c;
  for (int i = 0; i < 4; ++i) d += part(a, i, 8, sa) * part(b, i, 8, sb);
  return static_cast<uint32_t>(ref::modn(d, 32));
}

// PTX ISA dp2a: d = c + sum Va[i] * Vb[b_select + i], Va halves, Vb bytes.
uint32_t ref_dp2a(uint32_t a, uint32_t b, uint32_t c, bool sa, bool sb, bool hi) {
  int64_t d = c;
  const int sel = hi ? 2 : 0;
  for (int i = 0; i < 2; ++i) d += part(a, i, 16, sa) * part(b, sel + i, 8, sb);
  return static_cast<uint32_t>(ref::modn(d, 32));
}

// Words made of edge bytes: every byte from {0, 1, 0x7f, 0x80, 0x81, 0xff}.
std::vector<uint32_t> byte_edge_words() {
  const uint32_t bytes[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff};
  std::vector<uint32_t> v;
  for (uint32_t b0 : bytes)
    for (uint32_t b1 : bytes)
      for (uint32_t b2 : bytes)
        for (uint32_t b3 : bytes) v.push_back(b0 | b1 << 8 | b2 << 16 | b3 << 24);
  return v;
}

using Case = std::tuple<Type, Type>;
class Dot : public ::testing::TestWithParam<Case> {};

TEST_P(Dot, Dp4aAndDp2a) {
  const auto [ta, tb] = GetParam();
  const bool sa = is_signed(ta), sb = is_signed(tb);
  const isa::Instr i4 = instr(Op::dp4a, ta, {}, 3, tb);
  const isa::Instr i2lo = instr(Op::dp2a, ta, {Mod::lo}, 3, tb);
  const isa::Instr i2hi = instr(Op::dp2a, ta, {Mod::hi}, 3, tb);
  Tally t4("dp4a"), t2lo("dp2a.lo"), t2hi("dp2a.hi");
  auto one = [&](uint32_t a, uint32_t b, uint32_t c) {
    t4.expect(run(i4, {a, b, c}).value, ref_dp4a(a, b, c, sa, sb), {a, b, c});
    t2lo.expect(run(i2lo, {a, b, c}).value, ref_dp2a(a, b, c, sa, sb, false), {a, b, c});
    t2hi.expect(run(i2hi, {a, b, c}).value, ref_dp2a(a, b, c, sa, sb, true), {a, b, c});
  };
  const std::vector<uint32_t> w = byte_edge_words();
  const uint32_t cs[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff};
  for (size_t i = 0; i < w.size(); ++i)
    for (size_t j = 0; j < w.size(); j += 3) one(w[i], w[j], cs[(i + j) % 5]);
  Rng rng(170 + 2 * sa + sb);
  for (int i = 0; i < kRandom; ++i) {
    const auto a = static_cast<uint32_t>(rng.operand(32));
    const auto b = static_cast<uint32_t>(rng.operand(32));
    one(a, b, static_cast<uint32_t>(rng.operand(32)));
  }
  EXPECT_TRUE(t4.ok());
  EXPECT_TRUE(t2lo.ok());
  EXPECT_TRUE(t2hi.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Dot,
                         ::testing::Values(Case{Type::u32, Type::u32}, Case{Type::u32, Type::s32},
                                           Case{Type::s32, Type::u32}, Case{Type::s32, Type::s32}),
                         [](const auto& info) {
                           return std::string(isa::info(std::get<0>(info.param)).name) + "_" +
                                  std::string(isa::info(std::get<1>(info.param)).name);
                         });

TEST(Dot, HandWorked) {
  // (-1)*(-1) * 4 + 0 = 4 signed; 255*255*4 = 260100 unsigned.
  EXPECT_EQ(run(instr(Op::dp4a, Type::s32, {}, 3, Type::s32), {0xffffffff, 0xffffffff, 0}).value, 4u);
  EXPECT_EQ(run(instr(Op::dp4a, Type::u32, {}, 3, Type::u32), {0xffffffff, 0xffffffff, 0}).value, 260100u);
  // a unsigned bytes 255, b signed bytes -1: 4 * -255 + 1000 = -20.
  EXPECT_EQ(run(instr(Op::dp4a, Type::u32, {}, 3, Type::s32), {0xffffffff, 0xffffffff, 1000}).value, 0xffffffecu);
  // dp2a.hi: a halves (2, 3), b bytes 2..3 = (5, 7): 2*5 + 3*7 + 1 = 32.
  EXPECT_EQ(run(instr(Op::dp2a, Type::u32, {Mod::hi}, 3, Type::u32), {0x00030002, 0x07050b0a, 1}).value, 32u);
  // dp2a.lo: same a, bytes 0..1 = (10, 11): 20 + 33 + 1 = 54.
  EXPECT_EQ(run(instr(Op::dp2a, Type::u32, {Mod::lo}, 3, Type::u32), {0x00030002, 0x07050b0a, 1}).value, 54u);
}

}  // namespace
}  // namespace ptxfu::inttest
