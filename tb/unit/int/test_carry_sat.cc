// addc.sat.s32, subc.sat.s32 and madc.hi.sat.s32 (forms ptxas accepts): the
// exact signed sum with the carry-in, clamped to s32, against __int128
// arithmetic; edge values crossed with each other and seeded random.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "exec/execute.h"
#include "isa/decode.h"

namespace ptxfu::inttest {
namespace {

using s128 = __int128;

s128 s32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }
uint64_t clamp32(s128 v) {
  const s128 lo = INT32_MIN, hi = INT32_MAX;
  return static_cast<uint32_t>(static_cast<int32_t>(v < lo ? lo : v > hi ? hi : v));
}

uint64_t run(const char* mnemonic, unsigned n, const uint64_t* src, bool cin) {
  isa::Instr in;
  isa::Diagnostic d;
  EXPECT_TRUE(isa::decode(mnemonic, n, 1, in, d)) << d.message;
  return exec::execute(in, src, cin).value;
}

std::vector<uint64_t> operands() {
  std::vector<uint64_t> v = {0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff};
  std::mt19937 rng(99);
  for (int i = 0; i < 300; ++i) v.push_back(rng());
  return v;
}

TEST(CarrySat, AddcSubcMadcSaturateTheExactSum) {
  const auto ops = operands();
  long checked = 0;
  for (uint64_t a : ops)
    for (uint64_t b : ops)
      for (bool cin : {false, true}) {
        const uint64_t ab[2] = {a, b};
        EXPECT_EQ(run("addc.sat.s32", 2, ab, cin), clamp32(s32(a) + s32(b) + cin)) << std::hex << a << " " << b;
        // a + ~b + CF: a - b - 1 + CF (the carry convention of sub.cc/subc).
        EXPECT_EQ(run("subc.sat.s32", 2, ab, cin), clamp32(s32(a) - s32(b) - 1 + cin)) << std::hex << a << " " << b;
        const uint64_t c = a ^ (b << 1);
        const uint64_t abc[3] = {a, b, c};
        const s128 hi = (s32(a) * s32(b)) >> 32;  // arithmetic shift: floor of the high half
        EXPECT_EQ(run("madc.hi.sat.s32", 3, abc, cin), clamp32(hi + s32(c) + cin)) << std::hex << a << " " << b;
        checked += 3;
      }
  EXPECT_GT(checked, 500000);
}

}  // namespace
}  // namespace ptxfu::inttest
