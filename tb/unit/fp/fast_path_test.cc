// The fast paths are invisible: round_pack's 64-bit and 128-bit
// instantiations give the same bits, and IEEE rows added as data (tf32,
// e5m2, an IEEE-style e4m3) work with no new code, checked against the MPFR
// oracle (exhaustively for the 8-bit rows).
#include "fp/fast_path.h"
#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

// The precondition of the host fast paths holds in the test process.
TEST(FpFastPath, HostEnvironmentIsDefault) { EXPECT_TRUE(fp::fast::host_env_default()); }

TEST(FpFastPath, RoundPack64EqualsRoundPack128) {
  std::mt19937_64 rng(2024);
  int bad = 0;
  for (const fp::Format* fp_row : kAllRows) {
    const fp::Format& f = *fp_row;
    for (int i = 0; i < 400000 && bad < 10; ++i) {
      const int width = 1 + static_cast<int>(rng() % 64);
      uint64_t sig = rng() >> (64 - width);
      if (rng() % 4 == 0) sig |= uint64_t{1} << (width - 1);
      const bool sticky = sig != 0 && (rng() & 1);
      const bool sign = rng() & 1;
      // Exponents around the format's range, from deep underflow to overflow.
      const int span = f.emax() - f.emin() + 3 * f.frac_bits + 130;
      const int exp = f.emin() - 2 * f.frac_bits - 66 + static_cast<int>(rng() % span);
      for (fp::Rounding r : kModes) {
        const uint64_t want = fp::round_pack(f, sign, exp, fp::u128{sig}, sticky, r);
        const uint64_t got = fp::round_pack(f, sign, exp, sig, sticky, r);
        // The same value with its significand in the upper half of a u128.
        const uint64_t high = fp::round_pack(f, sign, exp - 64, fp::u128{sig} << 64, sticky, r);
        if (high != want && ++bad <= 10)
          ADD_FAILURE() << f.name << " " << mode_name(r) << " sig " << hex(sig) << " exp " << exp << " (<< 64)"
                        << " sticky " << sticky << ": " << hex(high) << " vs " << hex(want);
        if (got != want && ++bad <= 10)
          ADD_FAILURE() << f.name << " " << mode_name(r) << " sig " << hex(sig) << " exp " << exp << " sticky "
                        << sticky << ": " << hex(got) << " vs " << hex(want);
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// IEEE rows, data only: tf32 and e5m2 from format.h, and an IEEE-style
// layout of e4m3 (not the OCP one, which has no infinity) through the fast
// path and without it.
using fp::kE5M2;
using fp::kTF32;
constexpr fp::Format kE4M3Ieee{"e4m3ieee", 4, 3, fp::Specials::ieee, true};
constexpr fp::Format kE4M3IeeeGeneric{"e4m3ieee_generic", 4, 3};

int check_all(const fp::Format& f, const oracle::Spec& s, fp::Rounding r, uint64_t a, uint64_t b, uint64_t c) {
  const fp::Policy p{r};
  const oracle::Rnd o = to_oracle(r);
  int bad = 0;
  auto cmp = [&](const char* op, uint64_t got, uint64_t want) {
    if (got != want && ++bad <= 3)
      ADD_FAILURE() << op << "." << mode_name(r) << "." << f.name << " " << hex(a) << " " << hex(b) << " " << hex(c)
                    << ": " << hex(got) << " vs " << hex(want);
  };
  cmp("add", fp::add(f, a, b, p), oracle::add_bits(s, o, a, b));
  cmp("sub", fp::sub(f, a, b, p), oracle::sub_bits(s, o, a, b));
  cmp("mul", fp::mul(f, a, b, p), oracle::mul_bits(s, o, a, b));
  cmp("div", fp::div(f, a, b, p), oracle::div_bits(s, o, a, b));
  cmp("fma", fp::fma(f, a, b, c, p), oracle::fma_bits(s, o, a, b, c));
  cmp("sqrt", fp::sqrt(f, a, p), oracle::sqrt_bits(s, o, a));
  return bad;
}

TEST(FpNewRows, EightBitExhaustivePairs) {
  for (const auto& [f, s] : {std::pair{kE5M2, oracle::Spec{5, 2}}, std::pair{kE4M3Ieee, oracle::Spec{4, 3}},
                             std::pair{kE4M3IeeeGeneric, oracle::Spec{4, 3}}}) {
    std::mt19937_64 rng(8);
    int bad = 0;
    for (fp::Rounding r : kModes)
      for (uint64_t a = 0; a < 256 && bad < 10; ++a)
        for (uint64_t b = 0; b < 256; ++b) bad += check_all(f, s, r, a, b, rng() & 0xff);
    EXPECT_EQ(bad, 0) << f.name;
  }
}

TEST(FpNewRows, Tf32Random) {
  Gen g(kTF32, 32);
  int bad = 0;
  for (fp::Rounding r : kModes)
    for (int i = 0; i < 60000 && bad < 10; ++i) {
      uint64_t a, b, c;
      g.triple(a, b, c);
      bad += check_all(kTF32, oracle::Spec{8, 10}, r, a, b, c);
    }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace ptxfu::fptest
