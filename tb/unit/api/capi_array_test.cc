// The C API's array entry point (ptxfu_eval_array) against independent
// oracles: GNU MPFR for floating-point add, mul and fma in every rounding
// mode on uniformly random bit patterns (NaNs, infinities, subnormals), host
// integer arithmetic for a carry chain; and its error handling.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "oracle/mpfr_oracle.h"
#include "ptxfu/ptxfu.h"

namespace {

namespace oracle = ptxfu::oracle;

struct Row {
  const char* type;
  oracle::Spec spec;
  unsigned bits;
};
const Row kRows[] = {
    {"f16", oracle::kF16, 16}, {"bf16", oracle::kBF16, 16}, {"f32", oracle::kF32, 32}, {"f64", oracle::kF64, 64}};
const struct {
  const char* name;
  oracle::Rnd rnd;
} kModes[] = {{"rn", oracle::Rnd::rn}, {"rz", oracle::Rnd::rz}, {"rm", oracle::Rnd::rm}, {"rp", oracle::Rnd::rp}};

TEST(CapiArray, FloatAgainstMpfr) {
  std::mt19937_64 rng(15);
  constexpr uint32_t kN = 20000;
  int bad = 0;
  for (const Row& row : kRows)
    for (const auto& mode : kModes)
      for (const char* op : {"add", "mul", "fma"}) {
        if (row.bits == 16 && mode.rnd != oracle::Rnd::rn) continue;  // PTX gives f16 and bf16 only .rn
        const unsigned ns = std::string(op) == "fma" ? 3 : 2;
        const std::string form = std::string(op) + "." + mode.name + "." + row.type;
        const uint64_t mask = row.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << row.bits) - 1;
        std::vector<uint64_t> src(kN * ns), d(kN);
        for (uint64_t& v : src) v = rng() & mask;
        ASSERT_EQ(ptxfu_eval_array(form.c_str(), ns, kN, src.data(), nullptr, d.data(), nullptr), PTXFU_OK)
            << form << ": " << ptxfu_last_error();
        for (uint32_t i = 0; i < kN; ++i) {
          const uint64_t* s = &src[static_cast<size_t>(i) * ns];
          const uint64_t want = ns == 3                    ? oracle::fma_bits(row.spec, mode.rnd, s[0], s[1], s[2])
                                : std::string(op) == "add" ? oracle::add_bits(row.spec, mode.rnd, s[0], s[1])
                                                           : oracle::mul_bits(row.spec, mode.rnd, s[0], s[1]);
          if (d[i] != want && ++bad <= 10)
            ADD_FAILURE() << form << " vector " << i << ": got 0x" << std::hex << d[i] << " want 0x" << want;
        }
      }
  EXPECT_EQ(bad, 0);
}

// A 32-bit carry chain: add.cc then addc, each vector's carry in and out.
TEST(CapiArray, CarryAgainstHostIntegers) {
  std::mt19937_64 rng(16);
  constexpr uint32_t kN = 5000;
  std::vector<uint64_t> src(2 * kN), d(kN);
  std::vector<int> cin(kN), cout(kN);
  for (uint64_t& v : src) v = rng() & 0xffffffffu;
  for (int& c : cin) c = static_cast<int>(rng() & 1);
  ASSERT_EQ(ptxfu_eval_array("addc.cc.u32", 2, kN, src.data(), cin.data(), d.data(), cout.data()), PTXFU_OK)
      << ptxfu_last_error();
  for (uint32_t i = 0; i < kN; ++i) {
    const uint64_t sum = src[2 * i] + src[2 * i + 1] + static_cast<uint64_t>(cin[i]);
    ASSERT_EQ(d[i], sum & 0xffffffffu) << i;
    ASSERT_EQ(cout[i], static_cast<int>(sum >> 32)) << i;
  }
}

TEST(CapiArray, Errors) {
  uint64_t src[6] = {0x3c00, 0x4000, 0x3c00, 0x3c00, 0x14000, 0x3c00}, d[2] = {7, 7};
  EXPECT_EQ(ptxfu_eval_array("fma.rn.f16", 3, 2, src, nullptr, d, nullptr), PTXFU_BAD_OPERAND);
  EXPECT_NE(std::string(ptxfu_last_error()).find("vector 1: operand 2 0x14000 does not fit in 16 bits"),
            std::string::npos)
      << ptxfu_last_error();
  EXPECT_EQ(d[0], 7u);  // its block is not written
  EXPECT_EQ(ptxfu_eval_array("fma.bogus.f16", 3, 2, src, nullptr, d, nullptr), PTXFU_BAD_FORM);
  EXPECT_NE(std::string(ptxfu_last_error()).find("fma.bogus.f16"), std::string::npos);
  EXPECT_EQ(ptxfu_eval_array("fma.rn.f16", 3, 0, nullptr, nullptr, nullptr, nullptr), PTXFU_OK);
  src[4] = 0x4000;
  ASSERT_EQ(ptxfu_eval_array("fma.rn.f16", 3, 2, src, nullptr, d, nullptr), PTXFU_OK);
  EXPECT_EQ(d[0], 0x4200u);  // 1 * 2 + 1
  EXPECT_EQ(d[1], 0x4200u);
}

// The header's contract: blocks of 512 vectors, each checked before it is
// evaluated; a bad operand in vector 3000 leaves vectors 0-2559 evaluated and
// nothing from 2560 (its block's first) on written.
TEST(CapiArray, ErrorInALaterBlock) {
  constexpr uint32_t kN = 5000, kBad = 3000, kBlock = 512;
  std::vector<uint64_t> src(3 * kN, 0x3c00), d(kN, 7);  // 1 * 1 + 1 = 0x4000
  src[3 * kBad + 2] = 0x10000;
  ASSERT_EQ(ptxfu_eval_array("fma.rn.f16", 3, kN, src.data(), nullptr, d.data(), nullptr), PTXFU_BAD_OPERAND);
  EXPECT_NE(std::string(ptxfu_last_error()).find("vector 3000: operand 3 0x10000"), std::string::npos)
      << ptxfu_last_error();
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(d[i], i < kBad / kBlock * kBlock ? 0x4000u : 7u) << i;
}

}  // namespace
