// mul/mad .lo .hi .wide for u16 ... s64, and mad.hi.sat.s32.
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

enum class Part { lo, hi, wide };

const char* name(Part p) { return p == Part::lo ? "lo" : p == Part::hi ? "hi" : "wide"; }
Mod mod(Part p) { return p == Part::lo ? Mod::lo : p == Part::hi ? Mod::hi : Mod::wide; }

// The reference product part: n bits for lo/hi, 2n bits for wide.
uint64_t ref_part(Part p, uint64_t a, uint64_t b, int n, bool s) {
  const ref::Product t = ref::product(a, b, n, s);
  if (p == Part::lo) return t.lo;
  if (p == Part::hi) return t.hi;
  return t.lo | t.hi << n;  // wide: n <= 32
}

using Case = std::tuple<Type, Part>;

class MulMad : public ::testing::TestWithParam<Case> {};

TEST_P(MulMad, Mul) {
  // Not a structured binding: C++17 does not let a lambda capture one (clang rejects it).
  const Type t = std::get<0>(GetParam());
  const Part p = std::get<1>(GetParam());
  const int n = lane_width(t);
  const bool s = is_signed(t);
  Tally tally(std::string("mul.") + name(p) + "." + std::string(isa::info(t).name));
  const isa::Instr in = instr(Op::mul, t, {mod(p)});
  sweep_pairs(n, 10 + n, [&](uint64_t a, uint64_t b) {
    tally.expect(run(in, {a, b}).value, ref_part(p, a, b, n, s), {a, b});
  });
  EXPECT_TRUE(tally.ok());
}

TEST_P(MulMad, Mad) {
  // Not a structured binding: C++17 does not let a lambda capture one (clang rejects it).
  const Type t = std::get<0>(GetParam());
  const Part p = std::get<1>(GetParam());
  const int n = lane_width(t);
  const int dn = p == Part::wide ? 2 * n : n;  // c and d width
  const bool s = is_signed(t);
  Tally tally(std::string("mad.") + name(p) + "." + std::string(isa::info(t).name));
  const isa::Instr in = instr(Op::mad, t, {mod(p)}, 3);
  sweep_triples(n, dn, 20 + n, [&](uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t want = ref::modn(ref::num(ref_part(p, a, b, n, s), dn, s) + ref::num(c, dn, s), dn);
    tally.expect(run(in, {a, b, c}).value, want, {a, b, c});
  });
  EXPECT_TRUE(tally.ok());
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (Type t : {Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64})
    for (Part p : {Part::lo, Part::hi, Part::wide})
      if (p != Part::wide || lane_width(t) <= 32) v.emplace_back(t, p);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Int, MulMad, ::testing::ValuesIn(cases()), [](const auto& info) {
  return std::string(name(std::get<1>(info.param))) + "_" + std::string(isa::info(std::get<0>(info.param)).name);
});

// mad.hi.sat.s32: d = hi(a*b) + c, computed exactly and limited to the s32
// range (ISA: ".sat limits result to MININT..MAXINT (no overflow)").
TEST(MadHiSat, S32Clamps) {
  Tally tally("mad.hi.sat.s32");
  const isa::Instr in = instr(Op::mad, Type::s32, {Mod::hi, Mod::sat}, 3);
  sweep_triples(32, 32, 77, [&](uint64_t a, uint64_t b, uint64_t c) {
    const ref::s128 hi = ref::num(ref::product(a, b, 32, true).hi, 32, true);
    const uint64_t want = ref::saturate(hi + ref::num(c, 32, true), 32, true);
    tally.expect(run(in, {a, b, c}).value, want, {a, b, c});
  });
  EXPECT_TRUE(tally.ok());
}

TEST(MulMad, HandWorked) {
  // The DESIGN example: mul.wide.s32 0xffffffff 0x00000002 = -2 as 64 bits.
  EXPECT_EQ(run(instr(Op::mul, Type::s32, {Mod::wide}), {0xffffffff, 2}).value, 0xfffffffffffffffeull);
  EXPECT_EQ(run(instr(Op::mul, Type::u32, {Mod::wide}), {0xffffffff, 2}).value, 0x1fffffffeull);
  EXPECT_EQ(run(instr(Op::mul, Type::s32, {Mod::hi}), {0xffffffff, 2}).value, 0xffffffffu);
  EXPECT_EQ(run(instr(Op::mul, Type::u32, {Mod::hi}), {0xffffffff, 2}).value, 1u);
  EXPECT_EQ(run(instr(Op::mul, Type::u64, {Mod::hi}), {~0ull, ~0ull}).value, ~0ull - 1);
  EXPECT_EQ(run(instr(Op::mul, Type::s64, {Mod::hi}), {~0ull, ~0ull}).value, 0u);
  // hi(0x7fffffff^2) = 0x3fffffff; + 0x7fffffff overflows s32 -> MAXINT.
  EXPECT_EQ(run(instr(Op::mad, Type::s32, {Mod::hi, Mod::sat}, 3), {0x7fffffff, 0x7fffffff, 0x7fffffff}).value,
            0x7fffffffu);
  EXPECT_EQ(run(instr(Op::mad, Type::s32, {Mod::hi}, 3), {0x7fffffff, 0x7fffffff, 0x7fffffff}).value, 0xbffffffeu);
}

}  // namespace
}  // namespace ptxfu::inttest
