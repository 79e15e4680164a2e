// The matrix entry points of the C++ API (ptxfu::MmaInstruction) and the C
// API (ptxfu_mma, ptxfu_matmul) against the engine they wrap (mma/matrix.h,
// itself checked against MPFR and GPU vectors in tb/unit/mma): the same D
// for random operands, and their errors.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mma/matrix.h"
#include "ptxfu/ptxfu.h"
#include "ptxfu/ptxfu.hpp"

namespace {

constexpr const char* kBf16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";

std::vector<uint64_t> random_bits(std::size_t n, unsigned bits, std::mt19937_64& rng) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
  return v;
}

struct Case {
  const char* name;
  const char* target;
};
const Case kCases[] = {
    {kBf16, "sm_80"},
    {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "sm_90"},
    {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "sm_70"},
    {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "sm_100"},
    {"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "sm_89"},
    {"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", "sm_80"},
    {"wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", "sm_90a"},
};

TEST(MmaApi, OneInstructionEqualsTheEngine) {
  std::mt19937_64 rng(1);
  for (const Case& c : kCases) {
    const ptxfu::MmaInstruction inst(c.name, c.target);
    const ptxfu::mma::Instruction core = ptxfu::mma::parse_instruction(c.name, c.target);
    const int m = inst.m(), n = inst.n(), k = inst.k();
    for (int rep = 0; rep < 5; ++rep) {
      const auto a = random_bits(std::size_t(m) * k, inst.a_bits(), rng);
      const auto b = random_bits(std::size_t(k) * n, inst.b_bits(), rng);
      const auto cc = random_bits(std::size_t(m) * n, inst.c_bits(), rng);
      const auto want = ptxfu::mma::mma(core, a, b, cc);
      EXPECT_EQ(inst.mma(a, b, cc), want) << c.name;
      EXPECT_EQ(ptxfu::multiply_accumulate(c.name, c.target, a, b, cc), want) << c.name;
      std::vector<uint64_t> d(want.size());
      ASSERT_EQ(ptxfu_mma(c.name, c.target, a.data(), b.data(), cc.data(), d.data()), PTXFU_OK) << ptxfu_last_error();
      EXPECT_EQ(d, want) << c.name;
    }
  }
}

TEST(MmaApi, MatmulChainsOverKAsTheEngine) {
  std::mt19937_64 rng(2);
  const ptxfu::MmaInstruction inst(kBf16, "sm_80");
  const ptxfu::mma::Instruction core = ptxfu::mma::parse_instruction(kBf16, "sm_80");
  const int m = 21, n = 13, k = 64;  // M and N no multiples of the shape's
  const auto a = random_bits(m * k, 16, rng), b = random_bits(k * n, 16, rng), c = random_bits(m * n, 32, rng);
  const auto want = ptxfu::mma::matmul(core, m, n, k, a, b, c);
  EXPECT_EQ(inst.matmul(m, n, k, a, b, c), want);
  std::vector<uint64_t> d(want.size());
  ASSERT_EQ(ptxfu_matmul(kBf16, "sm_80", m, n, k, a.data(), b.data(), c.data(), d.data()), PTXFU_OK);
  EXPECT_EQ(d, want);
  int sm = 0, sn = 0, sk = 0;
  ASSERT_EQ(ptxfu_mma_shape(kBf16, "sm_80", &sm, &sn, &sk), PTXFU_OK);
  EXPECT_EQ(sm * 100 + sn * 10 + sk, 16 * 100 + 8 * 10 + 16);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ptxfu::Error& e) {
    return e.what();
  }
  return "";
}

TEST(MmaApi, Errors) {
  const ptxfu::MmaInstruction inst(kBf16, "sm_80");
  EXPECT_EQ(error_of([&] { inst.check_shapes(16, 15, 16, 8, 16, 8, false); }),
            "A is (16, 15); m16n8k16 needs (16, 16)");
  EXPECT_EQ(error_of([&] { inst.check_shapes(16, 32, 16, 8, 16, 8, true); }),
            "B is (16, 8); A is (16, 32): B needs 32 rows");
  EXPECT_EQ(error_of([&] { inst.check_shapes(16, 32, 32, 8, 16, 4, true); }),
            "C is (16, 4); A B is (16, 8): C needs the same");
  std::vector<uint64_t> a(256), b(128), c(128);
  a[17] = 0x10000;
  EXPECT_EQ(error_of([&] { inst.mma(a, b, c); }), "A element (1, 1) 0x10000 does not fit in 16 bits (bf16)");
  EXPECT_NE(error_of([] { ptxfu::MmaInstruction(kBf16, "sm_75"); }).find("not available on sm_75"), std::string::npos);
  std::vector<uint64_t> d(128);
  EXPECT_EQ(ptxfu_mma(kBf16, "sm_75", a.data(), b.data(), c.data(), d.data()), PTXFU_BAD_FORM);
  EXPECT_NE(std::string(ptxfu_last_error()).find("not available on sm_75"), std::string::npos);
  EXPECT_EQ(ptxfu_mma(kBf16, "sm_80", a.data(), b.data(), c.data(), d.data()), PTXFU_BAD_OPERAND);
  EXPECT_EQ(ptxfu_matmul(kBf16, "sm_80", 16, 8, 24, a.data(), b.data(), c.data(), d.data()), PTXFU_BAD_SHAPE);
  EXPECT_EQ(std::string(ptxfu_last_error()),
            "A is (16, 24); a chain of m16n8k16 needs a K that is a positive multiple of 16");
}

}  // namespace
