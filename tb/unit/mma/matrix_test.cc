// The matrix semantics: instruction names parsed into rows, errors for
// instructions a target lacks, D = A B + C element by element, and the
// chain over a large K.
#include "mma/matrix.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "mma/block_fma.h"

namespace ptxfu::mma {
namespace {

std::string error_of(std::string_view name, std::string_view target) {
  try {
    parse_instruction(name, target);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(MmaMatrix, ParsesTheFamiliesAndTypes) {
  const Instruction a = parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_80");
  EXPECT_EQ(a.family, Family::mma_sync);
  EXPECT_EQ(a.shape.m, 16);
  EXPECT_EQ(a.shape.n, 8);
  EXPECT_EQ(a.shape.k, 16);
  EXPECT_EQ(a.d, Elem::f32);
  EXPECT_EQ(a.a, Elem::bf16);
  EXPECT_EQ(a.c, Elem::f32);
  EXPECT_EQ(a.row, find_row(80, Family::mma_sync, Elem::bf16, Elem::f32));
  const Instruction w = parse_instruction("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16", "sm_70");
  EXPECT_EQ(w.family, Family::wmma);
  EXPECT_EQ(w.a, Elem::f16);
  EXPECT_EQ(w.d, Elem::f32);
  EXPECT_EQ(w.c, Elem::f16);
  const Instruction g = parse_instruction("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", "sm_90a");
  EXPECT_EQ(g.family, Family::wgmma);
  EXPECT_EQ(g.shape.n, 128);
  EXPECT_EQ(g.c, Elem::f32);
  const Instruction s = parse_instruction("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", "sm_80");
  EXPECT_TRUE(s.satfinite);
  EXPECT_EQ(s.row->method, Method::integer);
  EXPECT_EQ(parse_instruction("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "sm_90").row->method,
            Method::fma_chain);
  // fp8 mma.sync on sm_90 runs on the f16 datapath (measured); fp4 only on sm_120.
  EXPECT_EQ(parse_instruction("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", "sm_90").row->datapath_in,
            Elem::f16);
  EXPECT_NE(parse_instruction("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", "sm_120a").row,
            nullptr);
  EXPECT_THROW(parse_instruction("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", "sm_100a"),
               std::invalid_argument);
}

TEST(MmaMatrix, InstructionsATargetLacksAreErrors) {
  EXPECT_NE(error_of("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_75").find("not available on sm_75"),
            std::string::npos);
  EXPECT_NE(error_of("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", "sm_80").find("sm_89"), std::string::npos);
  EXPECT_NE(error_of("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "sm_100").find("not available"),
            std::string::npos);
  EXPECT_NE(error_of("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "compute_80").find("sm_NN"),
            std::string::npos);
  EXPECT_NE(error_of("mma.sync.aligned.row.col.f32.bf16.bf16.f32", "sm_80").find("no shape"), std::string::npos);
  EXPECT_NE(error_of("add.f32", "sm_80").find("not a matrix"), std::string::npos);
  EXPECT_NE(error_of("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", "sm_80")
                .find("sparse mma (mma.sp) is not modelled"),
            std::string::npos);
  EXPECT_NE(error_of("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32", "sm_89").find("different types"),
            std::string::npos);
  EXPECT_NE(error_of("mma.sync.aligned.m16n8k16.row.col.f32.bf16.f32", "sm_80").find("type words"), std::string::npos);
}

// Each D element is one engine call over its row of A and column of B.
TEST(MmaMatrix, EachElementIsOneEngineCall) {
  const Instruction inst = parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "sm_80");
  std::mt19937_64 rng(3);
  std::vector<uint64_t> a(16 * 16), b(16 * 8), c(16 * 8);
  for (auto& x : a) x = rng() & 0x3fff;  // finite f16 below 2
  for (auto& x : b) x = rng() & 0xbfff;
  for (auto& x : c) x = rng() & 0x3fffffff;
  const std::vector<uint64_t> d = mma(inst, a, b, c);
  ASSERT_EQ(d.size(), 16u * 8);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 8; ++j) {
      uint64_t ra[16], cb[16];
      for (int k = 0; k < 16; ++k) ra[k] = a[i * 16 + k], cb[k] = b[k * 8 + j];
      ASSERT_EQ(d[i * 8 + j], block_fma(*inst.row, 16, ra, cb, c[i * 8 + j])) << i << "," << j;
    }
  }
  EXPECT_THROW(mma(inst, std::vector<uint64_t>(5), b, c), std::invalid_argument);
}

// A large K is a chain of instructions in ascending k: the same as feeding
// each instruction's D to the next as C.
TEST(MmaMatrix, MatmulChainsInstructionsOverK) {
  const Instruction inst = parse_instruction("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "sm_90");
  const int m = 3, n = 5, k = 64;
  std::mt19937_64 rng(5);
  std::vector<uint64_t> a(m * k), b(k * n), c(m * n);
  for (auto& x : a) x = rng() & 0xbf7f;
  for (auto& x : b) x = rng() & 0x3f7f;
  for (auto& x : c) x = rng() & 0x3f7fffff;
  const std::vector<uint64_t> d = matmul(inst, m, n, k, a, b, c);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      uint64_t acc = c[i * n + j];
      for (int k0 = 0; k0 < k; k0 += 16) {
        uint64_t ra[16], cb[16];
        for (int t = 0; t < 16; ++t) ra[t] = a[i * k + k0 + t], cb[t] = b[(k0 + t) * n + j];
        acc = block_fma(*inst.row, 16, ra, cb, acc);
      }
      ASSERT_EQ(d[i * n + j], acc);
    }
  }
  EXPECT_THROW(matmul(inst, m, n, 40, a, b, c), std::invalid_argument);
}

// tf32 registers: the low 13 bits are ignored (truncated, not rounded).
TEST(MmaMatrix, Tf32InputsAreTruncated) {
  const Instruction inst = parse_instruction("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "sm_80");
  std::vector<uint64_t> a(16 * 8, 0), b(8 * 8, 0), c(16 * 8, 0);
  a[0] = 0x3f803fffu;  // 1 + 2^-10 + junk below tf32's 10 fraction bits
  b[0] = 0x3f800000u;
  EXPECT_EQ(mma(inst, a, b, c)[0], 0x3f802000u);  // 1 + 2^-10 exactly
}

// f16 c with f32 d widens exactly; integer mma wraps or saturates.
TEST(MmaMatrix, MixedCAndIntegers) {
  const Instruction w = parse_instruction("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16", "sm_80");
  std::vector<uint64_t> a(16 * 16, 0), b(16 * 16, 0), c(16 * 16, 0x3c00);  // c = 1.0 (f16)
  EXPECT_EQ(mma(w, a, b, c)[0], 0x3f800000u);
  const Instruction s = parse_instruction("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32", "sm_80");
  std::vector<uint64_t> ia(8 * 16, 0x7f), ib(16 * 8, 0x7f), ic(8 * 8, 0x7fffff00);
  EXPECT_EQ(mma(s, ia, ib, ic)[0], 0x7fffffffu);
}

// Block-scaled fp4 (kind::mxf4*): cases whose answers follow from the rule's
// words (numerics.h, Method::block_scaled) and the formats, not from the
// engine: exact sums, the NaN scale, an infinite c, an overflow.
TEST(MmaMatrix, BlockScaledFp4Cases) {
  const NumericsRow* row = find_block_scaled_row(120, Elem::e2m1, Elem::f32);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(find_block_scaled_row(90, Elem::e2m1, Elem::f32), nullptr);
  uint64_t one[64], six[64], zero[64] = {};
  for (int k = 0; k < 64; ++k) one[k] = 0x2, six[k] = 0x7;  // e2m1 1.0 and 6.0
  const uint64_t unit8[4] = {127, 127, 127, 127};           // ue8m0 2^0
  const uint64_t unit43[4] = {0x38, 0x38, 0x38, 0x38};      // ue4m3 1.0
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, one, one, unit8, unit8, 2, 0), 0x42800000u);  // 64
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue4m3, 64, one, one, unit43, unit43, 4, 0x3f800000u),
            0x42820000u);                           // 64 + 1
  const uint64_t half_b[4] = {126, 128, 126, 128};  // 2^-1, 2^1: the runs of 32 k weigh 1/2 and 2
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, one, one, unit8, half_b, 2, 0), 0x42a00000u);  // 16 + 64
  const uint64_t nan8[2] = {127, 0xff};
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, one, one, nan8, unit8, 2, 0), 0x7fffffffu);
  const uint64_t nan43[4] = {0x38, 0x38, 0xff, 0x38};  // the sign bit unread: 0x7f, the NaN
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue4m3, 64, one, one, nan43, unit43, 4, 0), 0x7fffffffu);
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, one, one, unit8, unit8, 2, 0xff800000u), 0xff800000u);
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, zero, one, unit8, unit8, 2, 0), 0u);  // +0
  const uint64_t big[2] = {254, 254};  // 2^127 each: 64 * 36 * 2^254 is beyond f32
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, six, six, big, big, 2, 0), 0x7f800000u);
  // c = 2^-40, below the grid 35 bits under the largest exponent (2^0): truncated away
  EXPECT_EQ(block_scaled_fma(*row, ScaleType::ue8m0, 64, one, one, unit8, unit8, 2, 0x2b800000u), 0x42800000u);
  // the pairings of PTX ISA Table 36, and the APIs' refusal without scales
  const Instruction nv = parse_instruction(
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3", "sm_120a");
  EXPECT_EQ(nv.scale_vec, 4);
  EXPECT_EQ(
      parse_instruction("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", "sm_120a")
          .scale_vec,
      2);
  for (const char* bad : {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue4m3",
                          "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
                          "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0"})
    EXPECT_THROW(parse_instruction(bad, "sm_120a"), std::invalid_argument) << bad;
  EXPECT_THROW(
      parse_instruction("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", "sm_90"),
      std::invalid_argument);
  std::vector<uint64_t> a(16 * 64, 2), b(64 * 8, 2), c(16 * 8, 0);
  EXPECT_THROW(mma(nv, a, b, c), std::invalid_argument);
}

}  // namespace
}  // namespace ptxfu::mma
