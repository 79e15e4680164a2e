// isa::literal_bits, the one reader of PTX literals, against oracles of its
// own: integers in host 128-bit arithmetic (the value, wrapped to the
// width), hexadecimal float spellings as the bits they name, and decimal
// literals through MPFR (rounded to binary64, as PTX reads a floating
// literal, then to binary32 for an f32 operand).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include <fmt/format.h>

#include "isa/statement.h"

namespace ptxfu::isa {
namespace {

uint64_t bits_of(const std::string& text, unsigned bits, bool floating) {
  uint64_t out = 0;
  EXPECT_TRUE(literal_bits(text, bits, floating, out)) << text;
  return out;
}

uint64_t wrap(__int128 v, unsigned bits) {
  const unsigned __int128 m = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(v) & m);
}

TEST(Literal, IntegersOfEverySpellingWrapToTheWidth) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const __int128 v = static_cast<__int128>(static_cast<int64_t>(rng())) >> (rng() % 64);
    const bool negative = v < 0;
    const unsigned __int128 mag = negative ? -v : v;
    const uint64_t m = static_cast<uint64_t>(mag);
    const std::string sign = negative ? "-" : "";
    std::string bin, oct;
    for (uint64_t x = m; x; x >>= 1) bin.insert(bin.begin(), static_cast<char>('0' + (x & 1)));
    for (uint64_t x = m; x; x >>= 3) oct.insert(oct.begin(), static_cast<char>('0' + (x & 7)));
    for (unsigned bits : {8u, 16u, 32u, 64u}) {
      const uint64_t want = wrap(v, bits);
      EXPECT_EQ(bits_of(sign + fmt::format("{}", m), bits, false), want);
      EXPECT_EQ(bits_of(sign + fmt::format("0x{:x}", m), bits, false), want);
      if (m) {
        EXPECT_EQ(bits_of(sign + "0b" + bin, bits, false), want);
        EXPECT_EQ(bits_of(sign + "0" + oct, bits, false), want);
      }
    }
  }
}

TEST(Literal, HexadecimalFloatsAreTheirBits) {
  EXPECT_EQ(bits_of("0f3f800000", 32, true), 0x3f800000u);
  EXPECT_EQ(bits_of("0d3ff0000000000000", 64, true), 0x3ff0000000000000u);
  EXPECT_EQ(bits_of("0F7FC00000", 32, true), 0x7fc00000u);
  // An f32 spelling for an f64 operand is widened exactly, and the reverse rounds.
  EXPECT_EQ(bits_of("0f3fc00000", 64, true), 0x3ff8000000000000u);
  EXPECT_EQ(bits_of("0d3ff0000000000001", 32, true), 0x3f800000u);
  uint64_t out = 0;
  EXPECT_FALSE(literal_bits("0f3f800000", 32, false, out));  // not where an integer stands
  EXPECT_FALSE(literal_bits("0f3c00", 16, true, out));       // nor for a half-precision operand
  EXPECT_FALSE(literal_bits("%r1", 32, false, out));
}

TEST(Literal, DecimalsRoundToBinary64ThenToTheOperand) {
  std::mt19937_64 rng(11);
  mpfr_t d, f;
  mpfr_init2(d, 53);
  mpfr_init2(f, 24);
  for (int i = 0; i < 3000; ++i) {
    const std::string text =
        fmt::format("{}.{}e{}", rng() % 100000, rng() % 1000000000, static_cast<int>(rng() % 80) - 40);
    mpfr_set_str(d, text.c_str(), 10, MPFR_RNDN);
    const double want64 = mpfr_get_d(d, MPFR_RNDN);
    mpfr_set(f, d, MPFR_RNDN);  // the binary64 value rounded again, as PTX converts
    const float want32 = mpfr_get_flt(f, MPFR_RNDN);
    uint64_t w64 = 0;
    uint32_t w32 = 0;
    std::memcpy(&w64, &want64, 8);
    std::memcpy(&w32, &want32, 4);
    EXPECT_EQ(bits_of(text, 64, true), w64) << text;
    EXPECT_EQ(bits_of(text, 32, true), w32) << text;
  }
  mpfr_clear(d);
  mpfr_clear(f);
}

}  // namespace
}  // namespace ptxfu::isa
