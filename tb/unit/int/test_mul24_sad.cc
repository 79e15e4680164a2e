// mul24/mad24 .lo .hi on u32/s32, mad24.hi.sat.s32, and sad on u16 ... s64,
// called directly in src/int (the exec wiring comes separately) and checked
// against 128-bit host arithmetic written out here.
#include <algorithm>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "int/int_ops.h"
#include "int_harness.h"
#include "int_ref.h"

namespace ptxfu::inttest {
namespace {

namespace fu = ptxfu::integer;
using fu::Part;

// Seeded random operand sets per form (the brief asks for >= 1e6).
constexpr int kMillion = 1000000;

const char* name(Part p) { return p == Part::lo ? "lo" : "hi"; }

// ---- reference -------------------------------------------------------------

// The 48-bit product of the low 24 bits of a and b, each read signed
// (bit 23 is the sign) or unsigned; then bits 31..0 (.lo) or 47..16 (.hi).
uint64_t ref_mul24(Part p, uint64_t a, uint64_t b, bool sgn) {
  const ref::s128 t = ref::num(a, 24, sgn) * ref::num(b, 24, sgn);
  return p == Part::lo ? ref::modn(t, 32) : ref::modn(ref::floor_div_pow2(t, 16), 32);
}

// part + c modulo 2^32, or with .sat the exact signed sum clamped to s32.
uint64_t ref_mad24(Part p, uint64_t a, uint64_t b, uint64_t c, bool sgn, bool sat) {
  const ref::s128 sum = ref::num(ref_mul24(p, a, b, sgn), 32, sgn) + ref::num(c, 32, sgn);
  return sat ? ref::saturate(sum, 32, sgn) : ref::modn(sum, 32);
}

// c + |a - b| with |a - b| exact at the n-bit value, the sum modulo 2^n.
uint64_t ref_sad(uint64_t a, uint64_t b, uint64_t c, int n, bool sgn) {
  const ref::s128 x = ref::num(a, n, sgn);
  const ref::s128 y = ref::num(b, n, sgn);
  const ref::s128 d = x < y ? y - x : x - y;
  return ref::modn(ref::num(c, n, sgn) + d, n);
}

// ---- operands --------------------------------------------------------------

// 24-bit edges (0, 1, 0x7fffff, 0x800000, 0xffffff and neighbours, walking
// ones and zeros), each with several patterns in bits 31..24, which mul24
// must ignore.
std::vector<uint64_t> edges24_with_garbage() {
  std::vector<uint64_t> e = {0, 1, 2, 0x7fffff, 0x800000, 0xffffff, 0x7ffffe, 0x800001, 0xfffffe};
  for (int k = 0; k < 24; ++k) {
    e.push_back(uint64_t{1} << k);
    e.push_back(~(uint64_t{1} << k) & 0xffffff);
  }
  std::vector<uint64_t> v;
  for (uint64_t top : {0x00u, 0xffu, 0x80u, 0x01u, 0x5au})
    for (uint64_t x : e) v.push_back(x | uint64_t{top} << 24);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// c values at the edges of the n-bit range.
std::vector<uint64_t> c_edges(int n) {
  const uint64_t m = mask(n);
  return {0, 1, m, m - 1, m >> 1, (m >> 1) + 1, 0x5555555555555555ull & m, 0xaaaaaaaaaaaaaaaaull & m};
}

// A 32-bit mul24 operand: weighted 24-bit value, random garbage on top.
uint64_t operand24(Rng& rng) { return rng.operand(24) | (rng.next() << 24 & 0xff000000u); }

// ---- sweeps, parameterised on the function under test ----------------------
// (so that the negative controls below can feed them a wrong function)

using Mul24Fn = std::function<uint64_t(Part, uint64_t, uint64_t)>;
using Mad24Fn = std::function<uint64_t(Part, uint64_t, uint64_t, uint64_t)>;
using SadFn = std::function<uint64_t(uint64_t, uint64_t, uint64_t)>;

void sweep_mul24(Tally& tally, const Mul24Fn& f, Part p, bool sgn, uint64_t seed, int random) {
  const std::vector<uint64_t> e = edges24_with_garbage();
  for (uint64_t a : e)
    for (uint64_t b : e) tally.expect(f(p, a, b), ref_mul24(p, a, b, sgn), {a, b});
  Rng rng(seed);
  for (int i = 0; i < random; ++i) {
    const uint64_t a = operand24(rng);
    const uint64_t b = operand24(rng);
    tally.expect(f(p, a, b), ref_mul24(p, a, b, sgn), {a, b});
  }
}

void sweep_mad24(Tally& tally, const Mad24Fn& f, Part p, bool sgn, bool sat, uint64_t seed, int random) {
  const std::vector<uint64_t> e = edges24_with_garbage();
  const std::vector<uint64_t> cs = c_edges(32);
  for (uint64_t a : e)
    for (uint64_t b : e)
      for (uint64_t c : cs) tally.expect(f(p, a, b, c), ref_mad24(p, a, b, c, sgn, sat), {a, b, c});
  Rng rng(seed);
  for (int i = 0; i < random; ++i) {
    const uint64_t a = operand24(rng);
    const uint64_t b = operand24(rng);
    const uint64_t c = rng.operand(32);
    tally.expect(f(p, a, b, c), ref_mad24(p, a, b, c, sgn, sat), {a, b, c});
  }
}

// n = 16: every a against every edge b (both ways round) with a random c;
// all n: all pairs of 8-bit-significant patterns with a random c; edges x
// edges x c edges; `random` weighted random triples.
void sweep_sad(Tally& tally, const SadFn& f, int n, bool sgn, uint64_t seed, int random) {
  const std::vector<uint64_t> e = edges(n);
  Rng rng(seed);
  auto check = [&](uint64_t a, uint64_t b, uint64_t c) {
    tally.expect(f(a, b, c), ref_sad(a, b, c, n, sgn), {a, b, c});
  };
  if (n <= 16)
    for (uint64_t a : every(n, seed))
      for (uint64_t b : e) {
        check(a, b, rng.operand(n));
        check(b, a, rng.operand(n));
      }
  const std::vector<uint64_t> p = eight_bit(n);
  for (uint64_t a : p)
    for (uint64_t b : p) check(a, b, rng.operand(n));
  for (uint64_t a : e)
    for (uint64_t b : e)
      for (uint64_t c : c_edges(n)) check(a, b, c);
  for (int i = 0; i < random; ++i) {
    const uint64_t a = rng.operand(n);
    const uint64_t b = rng.operand(n);
    check(a, b, rng.operand(n));
  }
}

// ---- mul24 / mad24 ---------------------------------------------------------

using Form = std::tuple<Type, Part>;

class Mul24 : public ::testing::TestWithParam<Form> {};

TEST_P(Mul24, Mul) {
  const Type t = std::get<0>(GetParam());
  const Part p = std::get<1>(GetParam());
  Tally tally(std::string("mul24.") + name(p) + "." + std::string(isa::info(t).name));
  sweep_mul24(
      tally, [t](Part q, uint64_t a, uint64_t b) { return fu::mul24(t, q, a, b); }, p, is_signed(t),
      100 + static_cast<int>(p), kMillion);
  RecordProperty("checked", static_cast<int>(tally.checked()));
  EXPECT_TRUE(tally.ok());
}

TEST_P(Mul24, Mad) {
  const Type t = std::get<0>(GetParam());
  const Part p = std::get<1>(GetParam());
  Tally tally(std::string("mad24.") + name(p) + "." + std::string(isa::info(t).name));
  sweep_mad24(
      tally, [t](Part q, uint64_t a, uint64_t b, uint64_t c) { return fu::mad24(t, q, a, b, c, false); }, p,
      is_signed(t), /*sat=*/false, 200 + static_cast<int>(p), kMillion);
  RecordProperty("checked", static_cast<int>(tally.checked()));
  EXPECT_TRUE(tally.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Mul24,
                         ::testing::Values(Form{Type::u32, Part::lo}, Form{Type::u32, Part::hi},
                                           Form{Type::s32, Part::lo}, Form{Type::s32, Part::hi}),
                         [](const auto& info) {
                           return std::string(name(std::get<1>(info.param))) + "_" +
                                  std::string(isa::info(std::get<0>(info.param)).name);
                         });

// mad24.hi.sat.s32: ISA 9.7.1.6, ".sat limits result of 32-bit signed
// addition to MININT..MAXINT (no overflow)": the exact sum of t<47..16> and
// c, both read as s32, clamped.
TEST(Mad24HiSat, S32Clamps) {
  Tally tally("mad24.hi.sat.s32");
  uint64_t clamped = 0;  // how often the sweep really saturated
  sweep_mad24(
      tally,
      [&](Part q, uint64_t a, uint64_t b, uint64_t c) {
        const uint64_t d = fu::mad24(Type::s32, q, a, b, c, true);
        if (d != fu::mad24(Type::s32, q, a, b, c, false)) ++clamped;
        return d;
      },
      Part::hi, true, true, 300, kMillion);
  RecordProperty("checked", static_cast<int>(tally.checked()));
  EXPECT_TRUE(tally.ok());
  RecordProperty("clamped", static_cast<int>(clamped));
  EXPECT_GT(clamped, 1000u) << "the sweep hardly reached the clamp";
}

// Bits 31..24 are ignored: the same low 24 bits give the same result,
// whatever lies above them.
TEST(Mul24, TopByteIgnored) {
  Tally tally("mul24/mad24 top byte");
  Rng rng(400);
  for (int i = 0; i < kMillion / 10; ++i) {
    const uint64_t a = rng.operand(24), b = rng.operand(24), c = rng.operand(32);
    const uint64_t ga = a | (rng.next() & 0xff000000u), gb = b | (rng.next() & 0xff000000u);
    for (Type t : {Type::u32, Type::s32})
      for (Part p : {Part::lo, Part::hi}) {
        tally.expect(fu::mul24(t, p, ga, gb), fu::mul24(t, p, a, b), {ga, gb});
        tally.expect(fu::mad24(t, p, ga, gb, c, false), fu::mad24(t, p, a, b, c, false), {ga, gb, c});
      }
    tally.expect(fu::mad24(Type::s32, Part::hi, ga, gb, c, true), fu::mad24(Type::s32, Part::hi, a, b, c, true),
                 {ga, gb, c});
  }
  RecordProperty("checked", static_cast<int>(tally.checked()));
  EXPECT_TRUE(tally.ok());
}

TEST(Mul24, HandWorked) {
  // Top byte ignored: 2 * 3.
  EXPECT_EQ(fu::mul24(Type::u32, Part::lo, 0xff000002, 0xab000003), 6u);
  // (2^24 - 1)^2 = 0xfffffe000001.
  EXPECT_EQ(fu::mul24(Type::u32, Part::lo, 0xffffff, 0xffffff), 0xfe000001u);
  EXPECT_EQ(fu::mul24(Type::u32, Part::hi, 0xffffff, 0xffffff), 0xfffffe00u);
  // .s32: 0xffffff is -1, so (-1)^2 = 1.
  EXPECT_EQ(fu::mul24(Type::s32, Part::lo, 0xffffff, 0xffffff), 1u);
  EXPECT_EQ(fu::mul24(Type::s32, Part::hi, 0xffffff, 0xffffff), 0u);
  // (-2^23)^2 = 2^46: bits 47..16 = 2^30.
  EXPECT_EQ(fu::mul24(Type::s32, Part::hi, 0x800000, 0x800000), 0x40000000u);
  EXPECT_EQ(fu::mul24(Type::u32, Part::hi, 0x800000, 0x800000), 0x40000000u);
  // -2^23 * (2^23 - 1) = -2^46 + 2^23 = 0xc00000800000 in 48 bits.
  EXPECT_EQ(fu::mul24(Type::s32, Part::hi, 0x800000, 0x7fffff), 0xc0000080u);
  EXPECT_EQ(fu::mul24(Type::s32, Part::lo, 0x800000, 0x7fffff), 0x00800000u);
  // 2^30 + MAXINT overflows s32: .sat gives MAXINT, plain mad24 wraps.
  EXPECT_EQ(fu::mad24(Type::s32, Part::hi, 0x800000, 0x800000, 0x7fffffff, true), 0x7fffffffu);
  EXPECT_EQ(fu::mad24(Type::s32, Part::hi, 0x800000, 0x800000, 0x7fffffff, false), 0xbfffffffu);
  // (-2^30 + 2^7) + MININT underflows: MININT.
  EXPECT_EQ(fu::mad24(Type::s32, Part::hi, 0x800000, 0x7fffff, 0x80000000, true), 0x80000000u);
  // No overflow: the sum itself.
  EXPECT_EQ(fu::mad24(Type::s32, Part::hi, 0x800000, 0x7fffff, 5, true), 0xc0000085u);
  EXPECT_EQ(fu::mad24(Type::u32, Part::lo, 0xffffff, 0xffffff, 0x02000000, false), 0x00000001u);
}

// ---- sad -------------------------------------------------------------------

class Sad : public ::testing::TestWithParam<Type> {};

TEST_P(Sad, MatchesReference) {
  const Type t = GetParam();
  const int n = lane_width(t);
  Tally tally("sad." + std::string(isa::info(t).name));
  sweep_sad(
      tally, [t](uint64_t a, uint64_t b, uint64_t c) { return fu::sad(t, a, b, c); }, n, is_signed(t),
      500 + n + (is_signed(t) ? 1 : 0), kMillion);
  RecordProperty("checked", static_cast<int>(tally.checked()));
  EXPECT_TRUE(tally.ok());
}

INSTANTIATE_TEST_SUITE_P(Int, Sad, ::testing::Values(Type::u16, Type::u32, Type::u64, Type::s16, Type::s32, Type::s64),
                         [](const auto& info) { return std::string(isa::info(info.param).name); });

TEST(Sad, HandWorked) {
  // The same bits, different distance: 0x7fff and 0x8000 are 1 apart
  // unsigned and 65535 apart signed.
  EXPECT_EQ(fu::sad(Type::u16, 0x7fff, 0x8000, 0), 1u);
  EXPECT_EQ(fu::sad(Type::s16, 0x7fff, 0x8000, 0), 0xffffu);
  EXPECT_EQ(fu::sad(Type::s16, 0x8000, 0x7fff, 1), 0u);  // 65535 + 1 wraps
  EXPECT_EQ(fu::sad(Type::u32, 3, 10, 100), 107u);
  EXPECT_EQ(fu::sad(Type::u32, 10, 3, 100), 107u);
  EXPECT_EQ(fu::sad(Type::s32, 0xfffffffd, 4, 0), 7u);  // |-3 - 4|
  EXPECT_EQ(fu::sad(Type::u32, 0xfffffffd, 4, 0), 0xfffffff9u);
  EXPECT_EQ(fu::sad(Type::s64, 0x7fffffffffffffffull, 0x8000000000000000ull, 0), ~0ull);
  EXPECT_EQ(fu::sad(Type::u64, 0, ~0ull, 2), 1u);
  // Operand bits above the type are ignored.
  EXPECT_EQ(fu::sad(Type::u16, 0xabcd0005, 0x12340002, 0xff0000), 3u);
}

// ---- negative controls: the sweeps catch plausible wrong implementations --

TEST(Mul24, SweepsCatchWrongFunctions) {
  {  // multiplying the full 32 bits instead of 24
    Tally tally("mul24 without the 24-bit mask");
    sweep_mul24(
        tally, [](Part p, uint64_t a, uint64_t b) { return fu::mul(Type::u32, p, a, b); }, Part::lo, false, 1, 1000);
    EXPECT_FALSE(tally.ok());
  }
  {  // .hi taken as bits 55..24 (mul.hi-style) instead of 47..16
    Tally tally("mul24.hi shifted by 24");
    sweep_mul24(
        tally, [](Part, uint64_t a, uint64_t b) { return ((a & 0xffffff) * (b & 0xffffff)) >> 24 & 0xffffffff; },
        Part::hi, false, 2, 1000);
    EXPECT_FALSE(tally.ok());
  }
  {  // .s32 read without sign extension from bit 23
    Tally tally("mul24.hi.s32 unsigned");
    sweep_mul24(
        tally, [](Part p, uint64_t a, uint64_t b) { return fu::mul24(Type::u32, p, a, b); }, Part::hi, true, 3, 1000);
    EXPECT_FALSE(tally.ok());
  }
  {  // .sat dropped
    Tally tally("mad24.hi.sat.s32 wrapping");
    sweep_mad24(
        tally, [](Part p, uint64_t a, uint64_t b, uint64_t c) { return fu::mad24(Type::s32, p, a, b, c, false); },
        Part::hi, true, true, 4, 1000);
    EXPECT_FALSE(tally.ok());
  }
  {  // .sat applied to c + t<31..0> (the wrong part)
    Tally tally("mad24.hi.sat.s32 on .lo");
    sweep_mad24(
        tally, [](Part, uint64_t a, uint64_t b, uint64_t c) { return fu::mad24(Type::s32, Part::lo, a, b, c, true); },
        Part::hi, true, true, 5, 1000);
    EXPECT_FALSE(tally.ok());
  }
}

TEST(Sad, SweepsCatchWrongFunctions) {
  for (Type t : {Type::s16, Type::s32, Type::s64}) {  // compared unsigned
    const int n = lane_width(t);
    Tally tally("sad." + std::string(isa::info(t).name) + " compared unsigned");
    sweep_sad(
        tally, [n](uint64_t a, uint64_t b, uint64_t c) { return ref_sad(a, b, c, n, false); }, n, true, 6, 1000);
    EXPECT_FALSE(tally.ok());
  }
  for (Type t : {Type::u16, Type::u32, Type::u64}) {  // a - b without the abs
    const int n = lane_width(t);
    Tally tally("sad." + std::string(isa::info(t).name) + " without abs");
    sweep_sad(
        tally, [n](uint64_t a, uint64_t b, uint64_t c) { return (c + a - b) & mask(n); }, n, false, 7, 1000);
    EXPECT_FALSE(tally.ok());
  }
}

}  // namespace
}  // namespace ptxfu::inttest
