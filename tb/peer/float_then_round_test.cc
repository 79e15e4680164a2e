// How the half-precision methods of other simulators compare with ptxfu,
// measured against the MPFR oracle on the same seeded random inputs:
//   float-then-truncate: compute in f32 (one f32 rounding), then truncate
//                        the f32 result to f16 (the method GPGPU-Sim uses);
//   float-then-round:    compute in f32, then round the f32 result to f16
//                        correctly (double rounding only);
//   ptxfu:               the exact core.
// The test asserts ptxfu's count is zero and prints all counts (README).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "exec/execute.h"
#include "isa/decode.h"
#include "oracle/mpfr_oracle.h"

namespace ptxfu {
namespace {

using oracle::kF16;
using oracle::Rnd;

// f16 value of an f32 result, by oracle conversion (x + -0 keeps -0).
uint64_t to_f16(float x, Rnd r) { return oracle::add(kF16, r, static_cast<double>(x), -0.0); }

isa::Instr form(const char* m, unsigned n) {
  isa::Instr in;
  isa::Diagnostic d;
  EXPECT_TRUE(isa::decode(m, n, 1, in, d)) << d.message;
  return in;
}

bool is_nan16(uint64_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff); }

TEST(PeerMethods, HalfPrecisionAgainstMpfr) {
  struct Op {
    const char* name;
    const char* mnemonic;
    unsigned sources;
  };
  const Op ops[] = {{"add", "add.rn.f16", 2}, {"mul", "mul.rn.f16", 2}, {"fma", "fma.rn.f16", 3}};
  constexpr int kCases = 1'000'000;
  std::mt19937 rng(20261122);
  for (const Op& op : ops) {
    const isa::Instr instr = form(op.mnemonic, op.sources);
    long truncate = 0, round = 0, exact = 0, compared = 0;
    for (int i = 0; i < kCases; ++i) {
      const uint64_t a = rng() & 0xffff, b = rng() & 0xffff, c = rng() & 0xffff;
      const double x = oracle::decode(kF16, a), y = oracle::decode(kF16, b), z = oracle::decode(kF16, c);
      uint64_t want;
      float f;
      if (op.sources == 2 && op.name[0] == 'a') {
        want = oracle::add(kF16, Rnd::rn, x, y);
        f = static_cast<float>(x) + static_cast<float>(y);
      } else if (op.sources == 2) {
        want = oracle::mul(kF16, Rnd::rn, x, y);
        f = static_cast<float>(x) * static_cast<float>(y);
      } else {
        want = oracle::fma(kF16, Rnd::rn, x, y, z);
        f = std::fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
      }
      if (is_nan16(want)) continue;  // NaN payloads are a policy, not a rounding question
      ++compared;
      const uint64_t src[3] = {a, b, c};
      truncate += to_f16(f, Rnd::rz) != want;
      round += to_f16(f, Rnd::rn) != want;
      exact += exec::execute(instr, src, false).value != want;
    }
    std::cout << fmt::format(
        "f16 {}: {} random cases; wrong results: float-then-truncate {} ({:.2f}%), "
        "float-then-round {} ({:.4f}%), ptxfu {}\n",
        op.name, compared, truncate, 100.0 * truncate / compared, round, 100.0 * round / compared, exact);
    EXPECT_EQ(exact, 0) << op.name;
    EXPECT_GT(truncate, 0) << op.name << ": the emulated peer method should differ";
  }
}

}  // namespace
}  // namespace ptxfu
