// and/or/xor/not/cnot, lop3, shl/shr, shf and prmt through exec::execute,
// against references written bit by bit (one bit, one byte at a time) from
// the PTX ISA text, independent of src/int.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "exec/execute.h"
#include "int_harness.h"
#include "isa/table.h"
#include "unit/run_by_name.h"

namespace ptxfu::inttest {
namespace {

using unittest::form;
using unittest::run;

uint64_t bit(uint64_t v, unsigned i) { return (v >> i) & 1; }

// Operands: edge patterns, then seeded random.
std::vector<uint64_t> operands(unsigned bits, std::mt19937_64& rng, int random = 200) {
  const uint64_t m = mask(static_cast<int>(bits));
  std::vector<uint64_t> v = {0, 1, m, m >> 1, (m >> 1) + 1, 0x5555555555555555 & m, 0xaaaaaaaaaaaaaaaa & m, 0x80 & m};
  for (int i = 0; i < random; ++i) v.push_back(rng() & m);
  return v;
}

TEST(LogicShift, BitwiseOnEveryWidthAndPred) {
  std::mt19937_64 rng(1);
  for (const char* type : {"b16", "b32", "b64", "pred"}) {
    const unsigned bits = std::string(type) == "pred" ? 1 : static_cast<unsigned>(std::stoi(type + 1));
    const auto vals = operands(bits, rng, 40);
    Tally t(std::string("logic.") + type);
    for (uint64_t a : vals)
      for (uint64_t b : vals) {
        uint64_t want_and = 0, want_or = 0, want_xor = 0, want_not = 0;
        for (unsigned i = 0; i < bits; ++i) {
          want_and |= (bit(a, i) && bit(b, i) ? uint64_t{1} : 0) << i;
          want_or |= (bit(a, i) || bit(b, i) ? uint64_t{1} : 0) << i;
          want_xor |= (bit(a, i) != bit(b, i) ? uint64_t{1} : 0) << i;
          want_not |= (bit(a, i) ? 0 : uint64_t{1}) << i;
        }
        t.expect(run(form(std::string("and.") + type, 2), {a, b}).value, want_and, {a, b});
        t.expect(run(form(std::string("or.") + type, 2), {a, b}).value, want_or, {a, b});
        t.expect(run(form(std::string("xor.") + type, 2), {a, b}).value, want_xor, {a, b});
        t.expect(run(form(std::string("not.") + type, 1), {a}).value, want_not, {a});
        if (bits > 1) t.expect(run(form(std::string("cnot.") + type, 1), {a}).value, a == 0 ? 1 : 0, {a});
      }
    EXPECT_TRUE(t.ok());
  }
}

// lop3: every LUT value against random inputs; the reference reads the LUT
// as the truth table over ta = 0xf0, tb = 0xcc, tc = 0xaa, bit by bit.
TEST(LogicShift, Lop3EveryLut) {
  std::mt19937_64 rng(2);
  const isa::Instr plain = form("lop3.b32", 4), with_and = form("lop3.and.b32", 5), with_or = form("lop3.or.b32", 5);
  Tally t("lop3");
  for (uint32_t lut = 0; lut < 256; ++lut)
    for (int k = 0; k < 64; ++k) {
      const uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
                     c = static_cast<uint32_t>(rng());
      uint32_t want = 0;
      for (unsigned i = 0; i < 32; ++i) {
        const unsigned row = static_cast<unsigned>(bit(a, i) << 2 | bit(b, i) << 1 | bit(c, i));
        want |= static_cast<uint32_t>(bit(lut, row)) << i;
      }
      // The same function written with ta/tb/tc: F(ta, tb, tc) == lut in the
      // low byte; bits 31:8 (a = b = c = 0 there) all read LUT bit 0.
      t.expect(run(plain, {0xf0, 0xcc, 0xaa, lut}).value, lut | ((lut & 1) ? 0xffffff00u : 0u), {lut});
      t.expect(run(plain, {a, b, c, lut}).value, want, {a, b, c, lut});
      for (uint64_t q : {0, 1}) {
        const exec::Result ra = run(with_and, {a, b, c, lut, q}), ro = run(with_or, {a, b, c, lut, q});
        t.expect(ra.value, want, {a, b, c, lut, q});
        t.expect(ra.second, (want != 0) && q, {a, b, c, lut, q});
        t.expect(ro.second, (want != 0) || q, {a, b, c, lut, q});
      }
    }
  EXPECT_TRUE(t.ok());
}

// shl/shr: every amount 0..300 (and a few huge ones) on every type. The
// reference moves one bit at a time and clamps nothing by hand: shifting n
// times by one is what an amount >= the width must equal.
TEST(LogicShift, ShlShrEveryAmount) {
  std::mt19937_64 rng(3);
  for (const char* type : {"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"}) {
    const unsigned bits = static_cast<unsigned>(std::stoi(type + 1));
    const bool sgn = type[0] == 's';
    const isa::Instr shr = form(std::string("shr.") + type, 2);
    const bool has_shl = type[0] == 'b';
    const isa::Instr shl = has_shl ? form(std::string("shl.") + type, 2) : shr;
    Tally t(std::string("shift.") + type);
    std::vector<uint32_t> amounts;
    for (uint32_t n = 0; n <= 300; ++n) amounts.push_back(n);
    for (uint32_t n : {1000u, 0x7fffffffu, 0x80000000u, 0xffffffffu}) amounts.push_back(n);
    for (uint64_t a : operands(bits, rng, 24)) {
      uint64_t left = a, right = a;
      uint32_t done = 0;
      for (uint32_t n : amounts) {
        for (; done < n && done <= bits; ++done) {  // one more bit position each
          left = (left << 1) & mask(static_cast<int>(bits));
          right = (right >> 1) | (sgn ? bit(right, bits - 1) << (bits - 1) : 0);
        }
        if (has_shl) t.expect(run(shl, {a, n}).value, left, {a, n});
        t.expect(run(shr, {a, n}).value, right, {a, n});
      }
    }
    EXPECT_TRUE(t.ok());
  }
}

// shf: every amount 0..63 on both directions and both modes; the reference
// builds the 64-bit {b, a} bit by bit.
TEST(LogicShift, ShfEveryAmount) {
  std::mt19937_64 rng(4);
  for (const char* dir : {"l", "r"})
    for (const char* mode : {"wrap", "clamp"}) {
      const isa::Instr in = form(std::string("shf.") + dir + "." + mode + ".b32", 3);
      Tally t(std::string("shf.") + dir + "." + mode);
      for (int k = 0; k < 400; ++k) {
        const uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
        for (uint32_t c = 0; c < 64; ++c) {
          for (uint32_t amount : {c, c | 0x100u, c | 0x80000000u}) {  // high bits: wrap ignores, clamp saturates
            const uint32_t n = std::string(mode) == "wrap" ? amount % 32 : (amount > 32 ? 32 : amount);
            uint32_t want = 0;
            for (unsigned i = 0; i < 32; ++i) {
              // bit j of {b, a}: a for j < 32, b above
              const int j = dir[0] == 'l' ? static_cast<int>(32 + i) - static_cast<int>(n) : static_cast<int>(i + n);
              const uint64_t v = j < 0 || j > 63 ? 0
                                 : j < 32        ? bit(a, static_cast<unsigned>(j))
                                                 : bit(b, static_cast<unsigned>(j - 32));
              want |= static_cast<uint32_t>(v) << i;
            }
            t.expect(run(in, {a, b, amount}).value, want, {a, b, amount});
          }
        }
      }
      EXPECT_TRUE(t.ok());
    }
}

// prmt: the default mode over every 16-bit selector, each mode over its four
// selectors (upper bits of c set at random), random a and b. The mode
// reference is the ISA's table, written as destination-byte lists.
TEST(LogicShift, PrmtEverySelector) {
  std::mt19937_64 rng(5);
  auto byte_of = [](uint32_t a, uint32_t b, unsigned i) {
    return i < 4 ? (a >> (8 * i)) & 0xff : (b >> (8 * (i - 4))) & 0xff;
  };
  {
    const isa::Instr in = form("prmt.b32", 3);
    Tally t("prmt");
    for (uint32_t sel = 0; sel < 0x10000; ++sel) {
      const uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
      const uint32_t c = sel | (static_cast<uint32_t>(rng()) & 0xffff0000u);  // c[31:16] is ignored
      uint32_t want = 0;
      for (unsigned i = 0; i < 4; ++i) {
        const unsigned s = (sel >> (4 * i)) & 0xf;
        uint32_t v = byte_of(a, b, s & 7);
        if (s & 8) v = (v >> 7) ? 0xff : 0x00;
        want |= v << (8 * i);
      }
      t.expect(run(in, {a, b, c}).value, want, {a, b, c});
    }
    EXPECT_TRUE(t.ok());
  }
  // d.b3 d.b2 d.b1 d.b0 per c[1:0], as the ISA's table prints them.
  struct Mode {
    const char* name;
    unsigned bytes[4][4];
  };
  const Mode modes[] = {
      {"f4e", {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}},
      {"b4e", {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}},
      {"rc8", {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}},
      {"ecl", {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}},
      {"ecr", {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}},
      {"rc16", {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}},
  };
  for (const Mode& m : modes) {
    const isa::Instr in = form(std::string("prmt.") + m.name + ".b32", 3);
    Tally t(std::string("prmt.") + m.name);
    for (int k = 0; k < 4000; ++k) {
      const uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng()),
                     c = static_cast<uint32_t>(rng());
      uint32_t want = 0;
      for (unsigned i = 0; i < 4; ++i) want |= byte_of(a, b, m.bytes[c & 3][3 - i]) << (8 * i);
      t.expect(run(in, {a, b, c}).value, want, {a, b, c});
    }
    EXPECT_TRUE(t.ok());
  }
}

// The worked example of CUB's PRMT documentation (cub/util_ptx.cuh): bytes
// 1, 3, 5 and 7 of {b, a}.
TEST(LogicShift, PrmtCubDocumentedExample) {
  EXPECT_EQ(run(form("prmt.b32", 3), {0x03020100, 0x07060504, 0x00007531}).value, 0x07050301u);
}

}  // namespace
}  // namespace ptxfu::inttest
