// cvt.pack.sat and mov's pack/unpack forms against host-integer references
// written here from the PTX ISA's semantics blocks, bit by bit, sharing
// nothing with src/int or src/exec:
//  - cvt.pack: "ta = a < MIN ? MIN : a; ... td = tb; td[i] = ta[i - size];
//    d[i] = c[i - 2 * size]" for every convert type (u16 s16 u8 s8 u4 s4 u2
//    s2), each pair of edge values (type limits +-1, powers of two, 0, +-1,
//    INT_MIN, INT_MAX) with several c, then 10^5 seeded random (a, b, c);
//  - mov: "d = a.x | (a.y << 16)" and "{ d.x, d.y } = { a[0..15], a[16..31] }"
//    for every width and element count, 10^5 seeded random vectors each,
//    through decode and exec::execute.
#include <random>
#include <string>
#include <vector>

#include "int_harness.h"
#include "int_ref.h"
#include "isa/decode.h"
#include "isa/table.h"

namespace ptxfu::inttest {
namespace {

struct PackType {
  const char* mnemonic;
  int bits;
  bool sgn;
  bool has_c;
};
constexpr PackType kPackTypes[] = {
    {"cvt.pack.sat.u16.s32", 16, false, false},  {"cvt.pack.sat.s16.s32", 16, true, false},
    {"cvt.pack.sat.u8.s32.b32", 8, false, true}, {"cvt.pack.sat.s8.s32.b32", 8, true, true},
    {"cvt.pack.sat.u4.s32.b32", 4, false, true}, {"cvt.pack.sat.s4.s32.b32", 4, true, true},
    {"cvt.pack.sat.u2.s32.b32", 2, false, true}, {"cvt.pack.sat.s2.s32.b32", 2, true, true},
};

// The spec's pseudo-code, one bit at a time.
uint32_t ref_pack(uint32_t a, uint32_t b, uint32_t c, const PackType& t) {
  const ref::s128 lo = ref::lowest(t.bits, t.sgn), hi = ref::highest(t.bits, t.sgn);
  auto clamp = [&](uint32_t v) {
    ref::s128 x = ref::num(v, 32, true);
    if (x < lo) x = lo;
    if (x > hi) x = hi;
    return ref::modn(x, t.bits);
  };
  const uint64_t ta = clamp(a), tb = clamp(b);
  const int size = t.bits;
  uint32_t d = 0;
  auto set = [&d](int i, uint64_t bit) { d |= static_cast<uint32_t>(bit & 1) << i; };
  for (int i = 0; i < size; ++i) set(i, tb >> i);                       // td = tb
  for (int i = size; i <= 2 * size - 1; ++i) set(i, ta >> (i - size));  // td[i] = ta[i - size]
  if (t.has_c)
    for (int i = 2 * size; i <= 31; ++i) set(i, c >> (i - 2 * size));  // d[i] = c[i - 2 * size]
  return d;
}

isa::Instr decoded(const std::string& mnemonic, unsigned num_src, unsigned dest_values = 1) {
  isa::Instr in;
  isa::Diagnostic d;
  EXPECT_TRUE(isa::decode(mnemonic, num_src, 1, in, d, dest_values)) << mnemonic << ": " << d.message;
  return in;
}

std::vector<uint32_t> pack_edges(const PackType& t) {
  std::vector<uint32_t> v = {0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x80000001, 0x7ffffffe};
  for (int k = 0; k < 32; ++k) {
    v.push_back(uint32_t{1} << k);
    v.push_back((uint32_t{1} << k) - 1);
    v.push_back(0u - (uint32_t{1} << k));
  }
  for (const ref::s128 limit : {ref::lowest(t.bits, t.sgn), ref::highest(t.bits, t.sgn)})
    for (int delta = -2; delta <= 2; ++delta) v.push_back(static_cast<uint32_t>(static_cast<int64_t>(limit + delta)));
  return v;
}

TEST(Pack, CvtPackSatAgainstTheSpecPseudoCode) {
  std::mt19937_64 rng(65);
  for (const PackType& t : kPackTypes) {
    const isa::Instr in = decoded(t.mnemonic, t.has_c ? 3 : 2);
    ASSERT_TRUE(in.row);
    Tally tally(t.mnemonic);
    auto check = [&](uint32_t a, uint32_t b, uint32_t c) {
      const uint64_t src[3] = {a, b, c};
      const uint64_t got = exec::execute(in, src, false).value;
      tally.expect(got, ref_pack(a, b, t.has_c ? c : 0, t), {a, b, c});
    };
    const auto edges = pack_edges(t);
    for (uint32_t a : edges)
      for (uint32_t b : edges)
        for (uint32_t c : {0u, 0xffffffffu, 0x12345678u}) check(a, b, c);
    for (int i = 0; i < kRandom; ++i) {
      const auto a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()), c = static_cast<uint32_t>(rng());
      // a third of the operands near the type's range, where saturation starts
      const auto near = [&](uint32_t x) { return (i % 3) ? x : static_cast<uint32_t>(static_cast<int32_t>(x) >> 24); };
      check(near(a), near(b), c);
    }
    EXPECT_TRUE(tally.ok());
  }
}

TEST(Pack, MovPacksAndUnpacksFirstElementLowest) {
  std::mt19937_64 rng(66);
  for (const unsigned bits : {16u, 32u, 64u, 128u}) {
    for (const unsigned n : {2u, 4u}) {
      const unsigned w = bits / n;
      if (w < 8) continue;  // mov.b16 has no four-element form
      const std::string type = "mov.b" + std::to_string(bits);
      const isa::Instr pack = decoded(type, n);
      const isa::Instr unpack = decoded(type, 1, n);
      ASSERT_TRUE(pack.row && unpack.row) << type;
      EXPECT_EQ(isa::dest_bits(unpack), w);
      Tally tally(type + " x" + std::to_string(n));
      for (int i = 0; i < kRandom; ++i) {
        uint64_t e[4];
        ref::u128 whole = 0;  // the reference: element k at bits [k*w, (k+1)*w)
        for (unsigned k = 0; k < n; ++k) {
          e[k] = rng() & mask(static_cast<int>(w));
          whole += static_cast<ref::u128>(e[k]) * (static_cast<ref::u128>(1) << (k * w));
        }
        const exec::Result p = exec::execute(pack, e, false);
        tally.expect(p.value, static_cast<uint64_t>(whole), {e[0], e[1]});
        tally.expect(p.high, static_cast<uint64_t>(whole >> 64), {e[0], e[1]});
        const uint64_t scalar[2] = {static_cast<uint64_t>(whole), static_cast<uint64_t>(whole >> 64)};
        const exec::Result u = exec::execute(unpack, scalar, false);
        for (unsigned k = 0; k < n; ++k) tally.expect(exec::element(u, k, w), e[k], {scalar[0], scalar[1], k});
      }
      EXPECT_TRUE(tally.ok());
    }
  }
}

}  // namespace
}  // namespace ptxfu::inttest
