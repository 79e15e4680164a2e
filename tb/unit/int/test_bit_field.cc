// bfe (.u32 .u64 .s32 .s64) and bfi (.b32 .b64): every pos and len in
// 0..255 for a set of operands, and random .u32 pos/len whose bits 31:8 must
// be ignored; each against the ISA pseudo-code transcribed bit by bit.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

bool bit(uint64_t a, unsigned i) { return i < 64 && ((a >> i) & 1) != 0; }

// PTX ISA bfe:
//   pos = b & 0xff; len = c & 0xff;
//   sbit = (unsigned || len == 0) ? 0 : a[min(pos+len-1, msb)];
//   d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit
uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int n, bool sgn) {
  const unsigned msb = static_cast<unsigned>(n - 1);
  const unsigned pos = b & 0xff, len = c & 0xff;
  const bool sbit = (sgn && len != 0) ? bit(a, std::min(pos + len - 1, msb)) : false;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const bool v = (i < len && pos + i <= msb) ? bit(a, pos + i) : sbit;
    if (v) d |= uint64_t{1} << i;
  }
  return d;
}

// PTX ISA bfi: f = b; for (i = 0; i < len && pos+i <= msb; i++) f[pos+i] = a[i];
uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int n) {
  const unsigned msb = static_cast<unsigned>(n - 1);
  const unsigned pos = c & 0xff, len = d & 0xff;
  uint64_t f = b & mask(n);
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    const uint64_t m = uint64_t{1} << (pos + i);
    f = bit(a, i) ? (f | m) : (f & ~m);
  }
  return f;
}

std::vector<uint64_t> field_operands(int n, uint64_t seed) {
  std::vector<uint64_t> v = {0,
                             mask(n),
                             uint64_t{1} << (n - 1),
                             mask(n) >> 1,
                             0x5555555555555555ull & mask(n),
                             0xaaaaaaaaaaaaaaaaull & mask(n)};
  Rng rng(seed);
  for (int i = 0; i < 6; ++i) v.push_back(rng.operand(n));
  return v;
}

class Bfe : public ::testing::TestWithParam<Type> {};

TEST_P(Bfe, EveryPosLen) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  const isa::Instr in = instr(Op::bfe, t, {}, 3);
  Tally tally("bfe." + std::string(isa::info(t).name));
  for (uint64_t a : field_operands(n, 100 + n))
    for (uint32_t pos = 0; pos < 256; ++pos)
      for (uint32_t len = 0; len < 256; ++len)
        tally.expect(run(in, {a, pos, len}).value, ref_bfe(a, pos, len, n, s), {a, pos, len});
  Rng rng(110 + n);
  for (int i = 0; i < kRandom; ++i) {
    const uint64_t a = rng.operand(n);
    const auto pos = static_cast<uint32_t>(rng.next());
    const auto len = static_cast<uint32_t>(rng.next());
    tally.expect(run(in, {a, pos, len}).value, ref_bfe(a, pos, len, n, s), {a, pos, len});
  }
  EXPECT_TRUE(tally.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Bfe, ::testing::Values(Type::u32, Type::u64, Type::s32, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

class Bfi : public ::testing::TestWithParam<Type> {};

TEST_P(Bfi, EveryPosLen) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const isa::Instr in = instr(Op::bfi, t, {}, 4);
  Tally tally("bfi." + std::string(isa::info(t).name));
  const std::vector<uint64_t> ops = field_operands(n, 120 + n);
  for (size_t k = 0; k < ops.size(); ++k) {
    const uint64_t a = ops[k], b = ops[(k * 5 + 3) % ops.size()];
    for (uint32_t pos = 0; pos < 256; ++pos)
      for (uint32_t len = 0; len < 256; ++len)
        tally.expect(run(in, {a, b, pos, len}).value, ref_bfi(a, b, pos, len, n), {a, b, pos, len});
  }
  Rng rng(130 + n);
  for (int i = 0; i < kRandom; ++i) {
    const uint64_t a = rng.operand(n), b = rng.operand(n);
    const auto pos = static_cast<uint32_t>(rng.next());
    const auto len = static_cast<uint32_t>(rng.next());
    tally.expect(run(in, {a, b, pos, len}).value, ref_bfi(a, b, pos, len, n), {a, b, pos, len});
  }
  EXPECT_TRUE(tally.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Bfi, ::testing::Values(Type::b32, Type::b64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

TEST(BitField, HandWorked) {
  EXPECT_EQ(run(instr(Op::bfe, Type::u32, {}, 3), {0x0000f0f0, 4, 8}).value, 0x0fu);
  EXPECT_EQ(run(instr(Op::bfe, Type::s32, {}, 3), {0x0000f0f0, 4, 8}).value, 0x0fu);  // a[11] = 0
  EXPECT_EQ(run(instr(Op::bfe, Type::s32, {}, 3), {0x0000f0f0, 8, 8}).value, 0xfffffff0u);
  EXPECT_EQ(run(instr(Op::bfe, Type::u32, {}, 3), {0x0000f0f0, 8, 8}).value, 0xf0u);
  EXPECT_EQ(run(instr(Op::bfe, Type::s32, {}, 3), {0x0000f0f0, 4, 0}).value, 0u);
  // Start beyond the msb: the replicated sign bit a[31].
  EXPECT_EQ(run(instr(Op::bfe, Type::s32, {}, 3), {0x80000000, 40, 3}).value, 0xffffffffu);
  // Only bits 7:0 of pos/len count: 0x104 is pos 4.
  EXPECT_EQ(run(instr(Op::bfe, Type::u32, {}, 3), {0x0000f0f0, 0x104, 0x208}).value, 0x0fu);
  EXPECT_EQ(run(instr(Op::bfi, Type::b32, {}, 4), {0xff, 0x12345678, 8, 4}).value, 0x12345f78u);
  EXPECT_EQ(run(instr(Op::bfi, Type::b32, {}, 4), {0xff, 0x12345678, 30, 8}).value, 0xd2345678u);
  EXPECT_EQ(run(instr(Op::bfi, Type::b64, {}, 4), {0xff, 0x1, 32, 0}).value, 0x1u);
}

}  // namespace
}  // namespace ptxfu::inttest
