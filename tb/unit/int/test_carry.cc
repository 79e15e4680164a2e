// The carry chain: every .cc/addc/subc/madc form for u32 s32 u64 s64 one
// instruction at a time, then multi-word arithmetic built from chains
// (128-bit add and sub from four 32-bit instructions, 64x64->128
// multiply-accumulate) checked against unsigned __int128.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

using ref::u128;

struct Expect {
  uint64_t value;
  bool carry;
};

// n-bit a + b + cin with its carry out, in 128 bits.
Expect ref_add(uint64_t a, uint64_t b, bool cin, int n) {
  const u128 s = static_cast<u128>(a & mask(n)) + (b & mask(n)) + cin;
  return {static_cast<uint64_t>(s) & mask(n), (s >> n) != 0};
}

// Subtraction in the model's documented convention: a - b - (1 - cin), and
// CF = 1 exactly when no borrow is needed (a >= b + (1 - cin)).
Expect ref_sub(uint64_t a, uint64_t b, bool cin, int n) {
  const u128 A = a & mask(n), B = static_cast<u128>(b & mask(n)) + (cin ? 0 : 1);
  const u128 d = A - B;  // mod 2^128
  return {static_cast<uint64_t>(d) & mask(n), A >= B};
}

class Carry : public ::testing::TestWithParam<Type> {};

// Runs one form over edges x edges and random pairs, both carry-in values.
template <class Ref>
void check_form(const isa::Instr& in, const char* what, bool reads_cc, uint64_t seed, Ref ref) {
  const int n = lane_width(in.type);
  const bool writes_cc = in.has(Mod::cc);
  Tally tv(std::string(what) + " value"), tc(std::string(what) + " CC.CF");
  auto one = [&](uint64_t a, uint64_t b, uint64_t c, bool cin) {
    const Out got = run(in, {a, b, c}, cin);
    const Expect want = ref(a, b, c, reads_cc && cin);
    tv.expect(got.value, want.value, {a, b, c, cin});
    tc.expect(got.carry, writes_cc && want.carry, {a, b, c, cin});
  };
  const std::vector<uint64_t> e = edges(n);
  Rng rng(seed);
  for (uint64_t a : e)
    for (uint64_t b : e)
      for (bool cin : {false, true}) one(a, b, rng.operand(n), cin);
  for (int i = 0; i < kRandom; ++i) {
    const uint64_t a = rng.operand(n), b = rng.operand(n), c = rng.operand(n);
    one(a, b, c, (rng.next() & 1) != 0);
  }
  EXPECT_TRUE(tv.ok());
  EXPECT_TRUE(tc.ok());
}

TEST_P(Carry, AddForms) {
  const Type t = GetParam();
  const int n = lane_width(t);
  auto add = [n](uint64_t a, uint64_t b, uint64_t, bool cin) { return ref_add(a, b, cin, n); };
  check_form(instr(Op::add, t, {Mod::cc}), "add.cc", false, 200 + n, add);
  check_form(instr(Op::addc, t), "addc", true, 201 + n, add);
  check_form(instr(Op::addc, t, {Mod::cc}), "addc.cc", true, 202 + n, add);
}

TEST_P(Carry, SubForms) {
  const Type t = GetParam();
  const int n = lane_width(t);
  // sub.cc reads no carry: it is a - b, i.e. "carry in" 1 in this convention.
  check_form(instr(Op::sub, t, {Mod::cc}), "sub.cc", false, 210 + n,
             [n](uint64_t a, uint64_t b, uint64_t, bool) { return ref_sub(a, b, true, n); });
  auto subc = [n](uint64_t a, uint64_t b, uint64_t, bool cin) { return ref_sub(a, b, cin, n); };
  check_form(instr(Op::subc, t), "subc", true, 211 + n, subc);
  check_form(instr(Op::subc, t, {Mod::cc}), "subc.cc", true, 212 + n, subc);
}

TEST_P(Carry, MadForms) {
  const Type t = GetParam();
  const int n = lane_width(t);
  const bool s = is_signed(t);
  for (bool hi : {false, true}) {
    auto mad = [n, s, hi](uint64_t a, uint64_t b, uint64_t c, bool cin) {
      const ref::Product p = ref::product(a, b, n, s);
      return ref_add(hi ? p.hi : p.lo, c, cin, n);
    };
    const Mod part = hi ? Mod::hi : Mod::lo;
    check_form(instr(Op::mad, t, {part, Mod::cc}, 3), hi ? "mad.hi.cc" : "mad.lo.cc", false, 220 + n + hi, mad);
    check_form(instr(Op::madc, t, {part}, 3), hi ? "madc.hi" : "madc.lo", true, 222 + n + hi, mad);
    check_form(instr(Op::madc, t, {part, Mod::cc}, 3), hi ? "madc.hi.cc" : "madc.lo.cc", true, 224 + n + hi, mad);
  }
}

INSTANTIATE_TEST_SUITE_P(Int, Carry, ::testing::Values(Type::u32, Type::s32, Type::u64, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

// A little machine with one CC.CF register, as a PTX thread has.
class Chain {
 public:
  uint64_t operator()(const isa::Instr& in, std::initializer_list<uint64_t> src) {
    const Out o = run(in, src, cf_);
    EXPECT_TRUE(o.claimed);
    if (in.has(Mod::cc)) cf_ = o.carry;
    return o.value;
  }

 private:
  bool cf_ = false;
};

uint32_t word(u128 v, int i) { return static_cast<uint32_t>(v >> (32 * i)); }
u128 join(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3) {
  return static_cast<u128>(w0) | static_cast<u128>(w1) << 32 | static_cast<u128>(w2) << 64 |
         static_cast<u128>(w3) << 96;
}

std::vector<u128> wide_operands(uint64_t seed) {
  std::vector<u128> v = {0,
                         1,
                         ~u128{0},
                         u128{1} << 127,
                         (u128{1} << 127) - 1,
                         u128{0xffffffffu},
                         u128{0xffffffffu} << 32,
                         ~u128{0} << 32,
                         (u128{1} << 96) - 1,
                         u128{1} << 64};
  Rng rng(seed);
  for (int i = 0; i < 4000; ++i) {
    const uint64_t lo = rng.operand(64);
    v.push_back(static_cast<u128>(rng.operand(64)) << 64 | lo);
  }
  return v;
}

// The ISA's example: [x4,x3,x2,x1] = [y4,y3,y2,y1] + [z4,z3,z2,z1].
TEST(CarryChain, Add128From32BitWords) {
  const isa::Instr add_cc = instr(Op::add, Type::u32, {Mod::cc});
  const isa::Instr addc_cc = instr(Op::addc, Type::u32, {Mod::cc});
  const isa::Instr addc = instr(Op::addc, Type::u32);
  const std::vector<u128> v = wide_operands(300);
  int bad = 0, checked = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i % 40; j < v.size(); j += 40) {
      const u128 y = v[i], z = v[j];
      Chain run_;
      const uint64_t x1 = run_(add_cc, {word(y, 0), word(z, 0)});
      const uint64_t x2 = run_(addc_cc, {word(y, 1), word(z, 1)});
      const uint64_t x3 = run_(addc_cc, {word(y, 2), word(z, 2)});
      const uint64_t x4 = run_(addc, {word(y, 3), word(z, 3)});
      bad += join(x1, x2, x3, x4) != y + z;
      ++checked;
    }
  EXPECT_EQ(bad, 0) << "of " << checked;
  EXPECT_GT(checked, 100000);
}

TEST(CarryChain, Sub128From32BitWords) {
  const isa::Instr sub_cc = instr(Op::sub, Type::u32, {Mod::cc});
  const isa::Instr subc_cc = instr(Op::subc, Type::u32, {Mod::cc});
  const isa::Instr subc = instr(Op::subc, Type::u32);
  const std::vector<u128> v = wide_operands(301);
  int bad = 0, checked = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i % 40; j < v.size(); j += 40) {
      const u128 y = v[i], z = v[j];
      Chain run_;
      const uint64_t x1 = run_(sub_cc, {word(y, 0), word(z, 0)});
      const uint64_t x2 = run_(subc_cc, {word(y, 1), word(z, 1)});
      const uint64_t x3 = run_(subc_cc, {word(y, 2), word(z, 2)});
      const uint64_t x4 = run_(subc, {word(y, 3), word(z, 3)});
      bad += join(x1, x2, x3, x4) != y - z;
      ++checked;
    }
  EXPECT_EQ(bad, 0) << "of " << checked;
  EXPECT_GT(checked, 100000);
}

// [d1,d0] = a*b + [c1,c0] mod 2^128 with 64-bit words:
//   mad.lo.cc.u64 d0, a, b, c0;  madc.hi.u64 d1, a, b, c1;
TEST(CarryChain, MulAdd64x64To128) {
  const isa::Instr mad_lo_cc = instr(Op::mad, Type::u64, {Mod::lo, Mod::cc}, 3);
  const isa::Instr madc_hi = instr(Op::madc, Type::u64, {Mod::hi}, 3);
  const std::vector<u128> v = wide_operands(302);
  Rng rng(303);
  int bad = 0, checked = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i % 40; j < v.size(); j += 40) {
      const auto a = static_cast<uint64_t>(v[i]), b = static_cast<uint64_t>(v[j] >> 64);
      const u128 c = v[(i * 7 + j) % v.size()];
      Chain run_;
      const uint64_t d0 = run_(mad_lo_cc, {a, b, static_cast<uint64_t>(c)});
      const uint64_t d1 = run_(madc_hi, {a, b, static_cast<uint64_t>(c >> 64)});
      bad += (static_cast<u128>(d1) << 64 | d0) != static_cast<u128>(a) * b + c;
      ++checked;
    }
  EXPECT_EQ(bad, 0) << "of " << checked;
  EXPECT_GT(checked, 100000);
}

// The ISA's madc example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6] in 32-bit words.
TEST(CarryChain, Mul64x64To128From32BitWords) {
  const isa::Instr mul_lo = instr(Op::mul, Type::u32, {Mod::lo});
  const isa::Instr mul_hi = instr(Op::mul, Type::u32, {Mod::hi});
  const isa::Instr mad_lo_cc = instr(Op::mad, Type::u32, {Mod::lo, Mod::cc}, 3);
  const isa::Instr madc_hi = instr(Op::madc, Type::u32, {Mod::hi}, 3);
  const isa::Instr madc_hi_cc = instr(Op::madc, Type::u32, {Mod::hi, Mod::cc}, 3);
  const isa::Instr addc = instr(Op::addc, Type::u32);
  const std::vector<u128> v = wide_operands(304);
  int bad = 0, checked = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i % 40; j < v.size(); j += 40) {
      const auto x = static_cast<uint64_t>(v[i]), y = static_cast<uint64_t>(v[j] >> 64);
      const uint64_t r4 = x & 0xffffffff, r5 = x >> 32, r6 = y & 0xffffffff, r7 = y >> 32;
      Chain run_;
      const uint64_t r0 = run_(mul_lo, {r4, r6});
      uint64_t r1 = run_(mul_hi, {r4, r6});
      r1 = run_(mad_lo_cc, {r5, r6, r1});
      uint64_t r2 = run_(madc_hi, {r5, r6, 0});
      r1 = run_(mad_lo_cc, {r4, r7, r1});
      r2 = run_(madc_hi_cc, {r4, r7, r2});
      uint64_t r3 = run_(addc, {0, 0});
      r2 = run_(mad_lo_cc, {r5, r7, r2});
      r3 = run_(madc_hi, {r5, r7, r3});
      bad += join(r0, r1, r2, r3) != static_cast<u128>(x) * y;
      ++checked;
    }
  EXPECT_EQ(bad, 0) << "of " << checked;
  EXPECT_GT(checked, 100000);
}

// The documented flag convention, one case each (see src/int/int_ops.h).
TEST(CarryChain, FlagConvention) {
  // DESIGN example: add.cc.u32 0xffffffff 0x00000001 -> 0 cc=1.
  Out o = run(instr(Op::add, Type::u32, {Mod::cc}), {0xffffffff, 1});
  EXPECT_EQ(o.value, 0u);
  EXPECT_TRUE(o.carry);
  // addc.u32 1 2 cc=1 -> 4, writes no flag.
  o = run(instr(Op::addc, Type::u32), {1, 2}, true);
  EXPECT_EQ(o.value, 4u);
  EXPECT_FALSE(o.carry);
  // 0 - 1 borrows: CF = 0 (carry out of 0 + ~1 + 1).
  o = run(instr(Op::sub, Type::u32, {Mod::cc}), {0, 1});
  EXPECT_EQ(o.value, 0xffffffffu);
  EXPECT_FALSE(o.carry);
  o = run(instr(Op::sub, Type::u32, {Mod::cc}), {5, 5});
  EXPECT_EQ(o.value, 0u);
  EXPECT_TRUE(o.carry);
  // subc with CF = 0 subtracts one more: 0 + ~0 + 0 = 0xffffffff, which is
  // what hardware gives for add.cc.u32 r, 0, 0; subc.u32 d, 0, 0.
  o = run(instr(Op::subc, Type::u32), {0, 0}, false);
  EXPECT_EQ(o.value, 0xffffffffu);
  o = run(instr(Op::subc, Type::u32), {0, 0}, true);
  EXPECT_EQ(o.value, 0u);
}

}  // namespace
}  // namespace ptxfu::inttest
