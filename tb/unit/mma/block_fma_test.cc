// The block-FMA engine against the independent oracle (block_oracle.h):
// seeded random blocks for every measured rule, and hand-made cases that
// each tell one parameter apart (the expected bits are worked out in the
// comments; each case also goes through the oracle).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "block_oracle.h"
#include "mma/block_fma.h"
#include "mma/numerics.h"

namespace ptxfu::mma::test {
namespace {

using oracle::Rnd;
constexpr Family kWmma = Family::wmma, kMma = Family::mma_sync, kWgmma = Family::wgmma;

// The rules the tests expect, written from the papers and the vectors
// independently of src/mma/numerics.cc.
struct Expected {
  int sm;
  Family family;
  Elem in, out;
  Rule rule;
};
const Expected kExpected[] = {
    {70, kWmma, Elem::f16, Elem::f32, {4, 23, -1, Rnd::rz, kInF16, oracle::kF32}},
    {70, kWmma, Elem::f16, Elem::f16, {4, 23, -1, Rnd::rn, kInF16, oracle::kF16}},
    {80, kWmma, Elem::f16, Elem::f32, {8, 24, -1, Rnd::rz, kInF16, oracle::kF32}},
    {80, kWmma, Elem::f16, Elem::f16, {8, 24, -1, Rnd::rn, kInF16, oracle::kF16}},
    {80, kWmma, Elem::bf16, Elem::f32, {8, 24, -1, Rnd::rz, kInBF16, oracle::kF32}},
    {80, kWmma, Elem::tf32, Elem::f32, {4, 24, -1, Rnd::rz, kInTF32, oracle::kF32}},
    {89, kMma, Elem::e4m3, Elem::f32, {16, 13, 13, Rnd::rz, kInE4M3, oracle::kF32}},
    {89, kMma, Elem::e5m2, Elem::f32, {16, 13, 13, Rnd::rz, kInE5M2, oracle::kF32}},
    {90, kWmma, Elem::f16, Elem::f32, {16, 25, -1, Rnd::rz, kInF16, oracle::kF32}},
    {90, kWmma, Elem::f16, Elem::f16, {16, 25, -1, Rnd::rn, kInF16, oracle::kF16}},
    {90, kWmma, Elem::bf16, Elem::f32, {16, 25, -1, Rnd::rz, kInBF16, oracle::kF32}},
    {90, kWmma, Elem::tf32, Elem::f32, {8, 25, -1, Rnd::rz, kInTF32, oracle::kF32}},
    {90, kWgmma, Elem::e4m3, Elem::f32, {32, 13, 13, Rnd::rz, kInE4M3, oracle::kF32}},
    {100, kWmma, Elem::f16, Elem::f32, {16, 25, -1, Rnd::rz, kInF16, oracle::kF32}},
    {100, kWmma, Elem::f16, Elem::f16, {16, 25, -1, Rnd::rn, kInF16, oracle::kF16}},
    {100, kWmma, Elem::tf32, Elem::f32, {8, 25, -1, Rnd::rz, kInTF32, oracle::kF32}},
    // mma.sync fp8 on sm_90/sm_100: widened to f16, dealt in pairs to f16
    // blocks of 16, chained from 0 as the f16 row rounds, then + c (RN).
    {90, kMma, Elem::e4m3, Elem::f16, {16, 25, -1, Rnd::rn, kInE4M3, oracle::kF16, true, Rnd::rn, 2, 5, 2}},
    {90, kMma, Elem::e5m2, Elem::f32, {16, 25, -1, Rnd::rz, kInE5M2, oracle::kF32, true, Rnd::rn, 2, 5, 2}},
    {100, kMma, Elem::e4m3, Elem::f32, {16, 25, -1, Rnd::rz, kInE4M3, oracle::kF32, true, Rnd::rn, 2, 5, 2}},
    {100, kMma, Elem::e5m2, Elem::f32, {16, 25, -1, Rnd::rz, kInE5M2, oracle::kF32, true, Rnd::rn, 2, 5, 2}},
    {100, kMma, Elem::e5m2, Elem::f16, {16, 25, -1, Rnd::rn, kInE5M2, oracle::kF16, true, Rnd::rn, 2, 5, 2}},
};

const NumericsRow& row_for(int sm, Family f, Elem in, Elem out) {
  const NumericsRow* r = find_row(sm, f, in, out);
  if (!r) throw std::runtime_error("no row");
  return *r;
}

const Expected& expected_for(int sm, Elem in, Elem out) {
  for (const Expected& e : kExpected) {
    if (e.sm == sm && e.in == in && e.out == out) return e;
  }
  throw std::runtime_error("no expectation");
}

// Runs one block chain through the engine and the oracle; returns the
// engine's bits after checking they are the oracle's.
uint64_t run(int sm, Elem in, Elem out, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, uint64_t c) {
  const Expected& e = expected_for(sm, in, out);
  const uint64_t got = block_fma(row_for(sm, e.family, in, out), a.size(), a.data(), b.data(), c);
  std::vector<double> av, bv;
  for (std::size_t k = 0; k < a.size(); ++k) {
    av.push_back(decode_input(e.rule.in, a[k]));
    bv.push_back(decode_input(e.rule.in, b[k]));
  }
  EXPECT_EQ(got, oracle_chain(e.rule, av, bv, oracle::decode(e.rule.out, c))) << "sm_" << sm;
  return got;
}

uint64_t f16(double v) { return oracle::encode(oracle::kF16, v); }
uint64_t f32(double v) { return oracle::encode(oracle::kF32, v); }
// K inputs, all zero but the ones set.
std::vector<uint64_t> zeros(int k) { return std::vector<uint64_t>(k, 0); }

// ---- Seeded random blocks for every rule: the engine equals the oracle.

// A finite input below 2^max_exp in magnitude (the oracle takes finite
// values only: f16 outputs must not overflow).
uint64_t random_input(std::mt19937_64& rng, const InFormat& f, int max_exp = 1024) {
  const int width = 1 + f.exp_bits + f.frac_bits;
  for (;;) {
    const uint64_t bits = rng() & ((uint64_t{1} << width) - 1);
    const uint64_t mag = bits & ((uint64_t{1} << (width - 1)) - 1);
    const uint64_t top_exp = ((uint64_t{1} << f.exp_bits) - 1) << f.frac_bits;
    const bool finite = f.finite_top ? mag != (uint64_t{1} << (width - 1)) - 1 : (mag & top_exp) != top_exp;
    if (finite && std::abs(decode_input(f, bits)) < std::ldexp(1.0, max_exp)) return bits;
  }
}

// c near the products' magnitudes most of the time, anywhere finite else.
double random_c(std::mt19937_64& rng, const oracle::Spec& out, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double v = rng() % 4 ? u(rng) * scale * std::ldexp(1.0, static_cast<int>(rng() % 24) - 12) : 0.0;
  const double c = oracle::decode(out, oracle::add(out, Rnd::rn, v, 0.0));  // rounded to the format
  return std::isinf(c) ? 0.0 : c;                                           // the oracle takes finite values
}

TEST(BlockFma, RandomBlocksEqualTheOracle) {
  std::mt19937_64 rng(20251207);
  for (const Expected& e : kExpected) {
    const NumericsRow& row = row_for(e.sm, e.family, e.in, e.out);
    for (int t = 0; t < 3000; ++t) {
      // One block or two chained; the fp8 rows' k32 and k16 (two instructions of one block, of half a block).
      const int k = e.rule.k_group ? e.rule.width * (2 - t % 2) : e.rule.width * (1 + t % 2);
      std::vector<uint64_t> a(k), b(k);
      std::vector<double> av(k), bv(k);
      double scale = 0;
      const int max_exp = e.rule.out.exp_bits == 5 ? 5 : 60;  // no overflow (f16: 64 products below 2^10)
      for (int i = 0; i < k; ++i) {
        a[i] = random_input(rng, e.rule.in, max_exp), b[i] = random_input(rng, e.rule.in, max_exp);
        av[i] = decode_input(e.rule.in, a[i]), bv[i] = decode_input(e.rule.in, b[i]);
        scale = std::max(scale, std::abs(av[i] * bv[i]));
      }
      const double c = random_c(rng, e.rule.out, scale);
      const uint64_t cb = oracle::encode(e.rule.out, c);
      ASSERT_EQ(block_fma(row, k, a.data(), b.data(), cb), oracle_chain(e.rule, av, bv, c))
          << "sm_" << e.sm << " " << elem_name(e.in) << "->" << elem_name(e.out) << " case " << t << " c = " << c
          << " first product " << av[0] * bv[0];
    }
  }
}

// ---- Whole matrices (block_fma_matrix: each element decoded once a tile).

// Row-major m x k of random finite inputs, and their values.
struct RandomMatrix {
  std::vector<uint64_t> bits;
  std::vector<double> values;
};
RandomMatrix random_matrix(std::mt19937_64& rng, const InFormat& f, std::size_t count, int max_exp) {
  RandomMatrix r;
  for (std::size_t i = 0; i < count; ++i) {
    // A zero now and then: zero products take no part in the alignment.
    r.bits.push_back(rng() % 8 == 0 ? 0 : random_input(rng, f, max_exp));
    r.values.push_back(decode_input(f, r.bits.back()));
  }
  return r;
}

// The oracle's chain for element (i, j): instructions of `step` k, each
// from the previous one's result.
uint64_t oracle_element(const Rule& rule, const RandomMatrix& a, const RandomMatrix& b_cols, std::size_t i,
                        std::size_t j, std::size_t k, std::size_t step, uint64_t c) {
  for (std::size_t k0 = 0; k0 < k; k0 += step) {
    const auto at = [&](const RandomMatrix& m, std::size_t row) {
      return std::vector<double>(m.values.begin() + row * k + k0, m.values.begin() + row * k + k0 + step);
    };
    c = oracle_chain(rule, at(a, i), at(b_cols, j), oracle::decode(rule.out, c));
  }
  return c;
}

// More columns than the engine decodes at once (16) and a K longer than it
// decodes at once (256 for k16 and k32 instructions); D apart from C, or
// written over it (every other rule).
TEST(BlockFmaMatrix, EveryElementIsTheOraclesChain) {
  std::mt19937_64 rng(20261127);
  bool in_place = false;
  for (const Expected& e : kExpected) {
    in_place = !in_place;
    const NumericsRow& row = row_for(e.sm, e.family, e.in, e.out);
    const std::size_t step = 2 * e.rule.width, m = 2, n = 18;
    const std::size_t k = step * (e.rule.width >= 8 ? 17 : 3);
    const int max_exp = e.rule.out.exp_bits == 5 ? 2 : 40;  // f16 outputs: no overflow over the whole K
    const RandomMatrix a = random_matrix(rng, e.rule.in, m * k, max_exp);
    const RandomMatrix b = random_matrix(rng, e.rule.in, n * k, max_exp);
    std::vector<uint64_t> c(m * n);
    for (uint64_t& x : c) x = oracle::encode(e.rule.out, random_c(rng, e.rule.out, 1.0));
    // D apart from C starts as a NaN nothing computes, so that reading D for C fails.
    std::vector<uint64_t> d = in_place ? c : std::vector<uint64_t>(c.size(), 0x7fc00001u);
    block_fma_matrix(row, step, m, n, k, a.bits.data(), b.bits.data(), in_place ? d.data() : c.data(), d.data());
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        ASSERT_EQ(d[i * n + j], oracle_element(e.rule, a, b, i, j, k, step, c[i * n + j]))
            << "sm_" << e.sm << " " << elem_name(e.in) << "->" << elem_name(e.out) << " d[" << i << "][" << j << "]";
      }
    }
  }
}

// K = 0: no instruction runs, D is C, on every method.
TEST(BlockFmaMatrix, NoKLeavesC) {
  const std::vector<uint64_t> c = {f32(1.5), f32(-2), 0x7fc00000u, f32(0)};
  for (const NumericsRow* row : {&row_for(80, kMma, Elem::f16, Elem::f32), &row_for(80, kMma, Elem::s8, Elem::s32)}) {
    std::vector<uint64_t> d(4, 7);
    block_fma_matrix(*row, 16, 2, 2, 0, nullptr, nullptr, c.data(), d.data());
    EXPECT_EQ(d, c);
  }
}

// An inf in row 0 of A and a NaN in column 1 of B make those elements
// special and leave the others to the oracle: inf * (positive) + finite is
// +inf, inf * 0 the canonical NaN, a NaN operand too.
TEST(BlockFmaMatrix, SpecialsReachOnlyTheirRowAndColumn) {
  const Expected& e = expected_for(80, Elem::f16, Elem::f32);
  const NumericsRow& row = row_for(80, kMma, Elem::f16, Elem::f32);
  const std::size_t m = 3, n = 4, k = 16;
  std::mt19937_64 rng(7);
  RandomMatrix a = random_matrix(rng, e.rule.in, m * k, 4), b = random_matrix(rng, e.rule.in, n * k, 4);
  for (std::size_t t = 0; t < k; ++t) b.bits[2 * k + t] = f16(1.0 + t), b.values[2 * k + t] = 1.0 + t;
  b.bits[3 * k + 5] = 0, b.values[3 * k + 5] = 0;
  a.bits[0 * k + 5] = 0x7c00;  // +inf at k 5 of row 0
  b.bits[1 * k + 9] = 0x7e00;  // NaN at k 9 of column 1
  const std::vector<uint64_t> c(m * n, f32(1.0));
  std::vector<uint64_t> d(m * n);
  block_fma_matrix(row, k, m, n, k, a.bits.data(), b.bits.data(), c.data(), d.data());
  EXPECT_EQ(d[0 * n + 2], 0x7f800000u);  // +inf * 6 + finite
  EXPECT_EQ(d[0 * n + 3], 0x7fffffffu);  // +inf * 0
  for (std::size_t i = 0; i < m; ++i) EXPECT_EQ(d[i * n + 1], 0x7fffffffu) << i;
  for (std::size_t i = 1; i < m; ++i) {
    for (std::size_t j : {0, 2, 3}) EXPECT_EQ(d[i * n + j], oracle_element(e.rule, a, b, i, j, k, k, c[0])) << i << j;
  }
}

// ---- Distinguishing cases.

// (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: 21 fraction bits, kept whole in f32.
TEST(BlockFma, ProductsAreExact) {
  std::vector<uint64_t> a = zeros(8), b = zeros(8);
  a[0] = b[0] = f16(1 + std::ldexp(1, -10));
  EXPECT_EQ(run(80, Elem::f16, Elem::f32, a, b, 0), 0x3f804008u);
}

// 1 + c with c = 1.75 * 2^-23: aligned to 2^-24 (24 kept bits) c is
// 1.5 * 2^-23; the sum 1 + 1.5 ulp is truncated to 1 + 1 ulp (RNE: 1 + 2 ulp).
TEST(BlockFma, F32ResultIsTruncated) {
  std::vector<uint64_t> a = zeros(8), b = zeros(8);
  a[0] = b[0] = f16(1);
  EXPECT_EQ(run(80, Elem::f16, Elem::f32, a, b, f32(1.75 * std::ldexp(1, -23))), 0x3f800001u);
}

// 1 + two products of 2^-24: kept with 24 bits (sm_80: 1 + 2^-23), lost
// with 23 (sm_70: 1). Four products of 2^-25: kept with 25 bits (sm_90),
// lost with 24 (sm_80).
TEST(BlockFma, ExtraAlignmentBits) {
  std::vector<uint64_t> a = zeros(4), b = zeros(4);
  a[0] = b[0] = f16(1);
  a[1] = a[2] = f16(std::ldexp(1, -12)), b[1] = b[2] = f16(std::ldexp(1, -12));
  EXPECT_EQ(run(70, Elem::f16, Elem::f32, a, b, 0), 0x3f800000u);
  a.resize(8), b.resize(8);
  EXPECT_EQ(run(80, Elem::f16, Elem::f32, a, b, 0), 0x3f800001u);
  std::vector<uint64_t> a16 = zeros(16), b16 = zeros(16);
  a16[0] = b16[0] = f16(1);
  for (int k = 1; k <= 4; ++k) a16[k] = f16(std::ldexp(1, -12)), b16[k] = f16(std::ldexp(1, -13));
  EXPECT_EQ(run(90, Elem::f16, Elem::f32, a16, b16, 0), 0x3f800001u);
  a16.resize(8), b16.resize(8);
  EXPECT_EQ(run(80, Elem::f16, Elem::f32, a16, b16, 0), 0x3f800000u);
}

// Small products first, 1 after them: where 1 falls in a later block the
// small ones were summed exactly (2^-23 in all) before meeting it, giving
// 1 + 2^-23; in the same block they are cut to nothing, giving 1. `small`
// products of `v` each at k < small, 1 at k = at.
uint64_t small_then_one(int sm, Elem in, int k, int small, double v_a, double v_b, int at) {
  std::vector<uint64_t> a = zeros(k), b = zeros(k);
  for (int i = 0; i < small; ++i) a[i] = f16(v_a), b[i] = f16(v_b);
  a[at] = b[at] = f16(1);
  return run(sm, in, Elem::f32, a, b, 0);
}

TEST(BlockFma, BlockWidth) {
  const double p12 = std::ldexp(1, -12), p13 = std::ldexp(1, -13);
  // Width 4 (sm_70): four 2^-25 at k 0..3 make 2^-23, then 1 at k = 4.
  EXPECT_EQ(small_then_one(70, Elem::f16, 8, 4, p12, p13, 4), 0x3f800001u);
  // Width 8 (sm_80): the same at k = 8 is a new block; at k = 4, the same block.
  EXPECT_EQ(small_then_one(80, Elem::f16, 16, 4, p12, p13, 8), 0x3f800001u);
  EXPECT_EQ(small_then_one(80, Elem::f16, 16, 4, p12, p13, 4), 0x3f800000u);
  // Width 16 (sm_90): eight 2^-26 make 2^-23; 1 at k = 16 (new block) or 8 (same block).
  EXPECT_EQ(small_then_one(90, Elem::f16, 32, 8, p13, p13, 16), 0x3f800001u);
  EXPECT_EQ(small_then_one(90, Elem::f16, 32, 8, p13, p13, 8), 0x3f800000u);
}

// Width 32 and the 13-bit sum of fp8 (e4m3: 2^-8 is the subnormal 0x02,
// 1 is 0x38): eight products 2^-16 make 2^-13; 1 at k = 16 is a second
// block on sm_89 (width 16: 1 + 2^-13) and the same block on sm_90
// (width 32: each 2^-16 cut at 2^-13, giving 1).
TEST(BlockFma, Fp8BlockWidthAnd13BitSum) {
  std::vector<uint64_t> a = zeros(32), b = zeros(32);
  for (int i = 0; i < 8; ++i) a[i] = b[i] = 0x02;
  a[16] = b[16] = 0x38;
  EXPECT_EQ(run(89, Elem::e4m3, Elem::f32, a, b, 0), 0x3f800400u);
  EXPECT_EQ(run(90, Elem::e4m3, Elem::f32, a, b, 0), 0x3f800000u);
  // 1 + 2^-14 (2^-7 = e4m3 0x04, squared): the 13-bit sum drops it on
  // sm_89; B200's 25 kept bits keep it.
  std::vector<uint64_t> c = zeros(16), d = zeros(16);
  c[0] = d[0] = 0x38;
  c[1] = d[1] = 0x04;
  EXPECT_EQ(run(89, Elem::e4m3, Elem::f32, c, d, 0), 0x3f800000u);
  c.resize(32), d.resize(32);
  EXPECT_EQ(run(100, Elem::e4m3, Elem::f32, c, d, 0), 0x3f800200u);
}

// mma.sync fp8 -> f16 on sm_90: k 0, 1 (block one) sum to 1 * 1 + 2^-6 *
// 2^-5 = 1 + 2^-11, a tie rounded to 1; c = 2^-11 is added after both
// blocks, another tie, to 1 (0x3c00). With c in the first block the exact
// 1 + 2^-10 would give 0x3c01.
TEST(BlockFma, Fp8ToF16AddsCAfterTheBlocks) {
  std::vector<uint64_t> a = zeros(32), b = zeros(32);
  a[0] = b[0] = 0x38;        // 1
  a[1] = 0x08, b[1] = 0x10;  // 2^-6, 2^-5
  const NumericsRow& row = row_for(90, kMma, Elem::e4m3, Elem::f16);
  EXPECT_EQ(block_fma(row, 32, a.data(), b.data(), f16(std::ldexp(1, -11))), 0x3c00u);
  EXPECT_EQ(block_fma(row, 32, a.data(), b.data(), 0), 0x3c00u);
  EXPECT_EQ(block_fma(row, 32, a.data(), b.data(), f16(std::ldexp(1, -10))), 0x3c01u);
  // The pairs dealt to the blocks: 1 and 2^-11 at k 0, 1 (first block)
  // round to 1 (a tie); 2^-11 at k 2 goes to the second block and rounds
  // away again: 0x3c00. Dealt in ascending runs of 16, k 2 would join the
  // first block: 1 + 2^-10 exactly, 0x3c01.
  std::vector<uint64_t> c = zeros(32), d = zeros(32);
  c[0] = d[0] = 0x38;
  c[1] = 0x08, d[1] = 0x10;
  c[2] = 0x08, d[2] = 0x10;
  EXPECT_EQ(block_fma(row, 32, c.data(), d.data(), 0), 0x3c00u);
  std::swap(c[2], c[4]), std::swap(d[2], d[4]);  // k 4: the first block: 1 + 2^-10
  EXPECT_EQ(block_fma(row, 32, c.data(), d.data(), 0), 0x3c01u);
}

// mma.sync fp8 m16n8k16 on sm_90 is two k8 instructions (SASS: two
// HMMA.1688), pairs of k in turn: k 0, 1 (2^8 * 2^8 and -2^8 * 2^8) cancel
// in the first, k 2, 3 (2^-16 * 2^-16 each, e5m2 subnormals) make 2^-31
// exactly in the second (0x30000000). As one block of 16 they share the
// largest exponent 2^16 and are cut away: +0.
TEST(BlockFma, Fp8K16IsTwoK8Instructions) {
  std::vector<uint64_t> a = zeros(16), b = zeros(16);
  a[0] = b[0] = b[1] = 0x5c;  // 2^8
  a[1] = 0xdc;                // -2^8
  a[2] = b[2] = a[3] = b[3] = 0x01;
  EXPECT_EQ(run(90, Elem::e5m2, Elem::f32, a, b, 0), 0x30000000u);
  std::swap(a[2], a[4]), std::swap(b[2], b[4]);  // k 4, 5: the first instruction, beside 2^16: cut away
  std::swap(a[3], a[5]), std::swap(b[3], b[5]);
  EXPECT_EQ(run(90, Elem::e5m2, Elem::f32, a, b, 0), 0u);
}

// A zero block result is +0 (H100 probe): every addend -0 (tf32 m16n8k4,
// tile edge_signed_zero: IEEE addition would give -0), and a negative sum
// that rounds to zero in f16 (f16 m16n8k16 -> f16, tile random_tiny: -2^-26
// is below half the smallest subnormal; IEEE rounding would give -0).
TEST(BlockFma, ZeroResultsArePositive) {
  const uint64_t tf32_neg_zero = uint64_t{1} << 18;  // tf32 as the engine takes it: 19 bits
  std::vector<uint64_t> a(4, tf32_neg_zero), b(4, 0);
  EXPECT_EQ(run(90, Elem::tf32, Elem::f32, a, b, 0x80000000u), 0u);
  EXPECT_EQ(
      run(90, Elem::tf32, Elem::f32, std::vector<uint64_t>(8, tf32_neg_zero), std::vector<uint64_t>(8, 0), 0x80000000u),
      0u);
  std::vector<uint64_t> x = zeros(16), y = zeros(16);
  x[0] = f16(-std::ldexp(1, -13)), y[0] = f16(std::ldexp(1, -13));
  EXPECT_EQ(run(90, Elem::f16, Elem::f16, x, y, 0), 0u);
  EXPECT_EQ(run(90, Elem::f16, Elem::f16, x, y, 0x8000), 0u);  // c = -0 too
  y[0] = f16(std::ldexp(1, -10));                              // -2^-23: two subnormal steps, kept
  EXPECT_EQ(run(90, Elem::f16, Elem::f16, x, y, 0), 0x8002u);
}

// Ampere's k16 is two blocks of 8: a k16 chain on sm_80 equals two k8 calls.
TEST(BlockFma, AmpereK16IsTwoBlocks) {
  std::mt19937_64 rng(7);
  const NumericsRow& row = row_for(80, kMma, Elem::f16, Elem::f32);
  for (int t = 0; t < 2000; ++t) {
    std::vector<uint64_t> a(16), b(16);
    for (int i = 0; i < 16; ++i) a[i] = random_input(rng, kInF16), b[i] = random_input(rng, kInF16);
    const uint64_t c = f32(1.0);
    const uint64_t half = block_fma(row, 8, a.data(), b.data(), c);
    ASSERT_EQ(block_fma(row, 16, a.data(), b.data(), c), block_fma(row, 8, a.data() + 8, b.data() + 8, half));
  }
  EXPECT_EQ(small_then_one(80, Elem::f16, 16, 4, std::ldexp(1, -12), std::ldexp(1, -13), 8), 0x3f800001u);
}

// 1 - 1.5 * 2^-24: the negative addend is cut towards zero to -2^-24,
// giving 1 - 2^-24 (0x3f7fffff); cut towards -inf it would be 1 - 2^-23.
TEST(BlockFma, NegativeAddendsTruncateTowardsZero) {
  std::vector<uint64_t> a = zeros(8), b = zeros(8);
  a[0] = b[0] = f16(1);
  a[1] = f16(-1.5 * std::ldexp(1, -12)), b[1] = f16(std::ldexp(1, -12));
  EXPECT_EQ(run(80, Elem::f16, Elem::f32, a, b, 0), 0x3f7fffffu);
}

// f16 output: 2^-14 * 1.5 * 2^-10 = 1.5 * 2^-24, one and a half of the
// smallest subnormal: a tie, to even (0x0002; truncation would give 0x0001).
// 2^-14 * 1.25 * 2^-10 rounds down to 0x0001.
TEST(BlockFma, F16OutputRoundsToNearestEvenWithSubnormals) {
  std::vector<uint64_t> a = zeros(8), b = zeros(8);
  a[0] = f16(std::ldexp(1, -14)), b[0] = f16(1.5 * std::ldexp(1, -10));
  EXPECT_EQ(run(80, Elem::f16, Elem::f16, a, b, 0), 0x0002u);
  b[0] = f16(1.25 * std::ldexp(1, -10));
  EXPECT_EQ(run(80, Elem::f16, Elem::f16, a, b, 0), 0x0001u);
  // 2.5 * 2^-24: a tie rounding down to even (0x0002).
  b[0] = f16(1.25 * std::ldexp(1, -9));
  EXPECT_EQ(run(80, Elem::f16, Elem::f16, a, b, 0), 0x0002u);
}

// f64: a chain of RNE fmas from c in ascending k. 1 + 2^-53 + 2^-53: each
// step is a tie to even (1); one rounding of the exact sum gives 1 + 2^-52.
TEST(BlockFma, F64IsASequentialFmaChain) {
  const NumericsRow& row = row_for(80, kMma, Elem::f64, Elem::f64);
  const uint64_t one = oracle::encode(oracle::kF64, 1.0), tiny = oracle::encode(oracle::kF64, std::ldexp(1, -53));
  const uint64_t a[4] = {tiny, tiny, one, one};
  const uint64_t b[4] = {one, one, tiny, tiny};
  EXPECT_EQ(block_fma(row, 4, a, b, one), one);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-4, 4);
  for (int t = 0; t < 2000; ++t) {
    uint64_t x[4], y[4];
    uint64_t want = oracle::encode(oracle::kF64, u(rng));
    const uint64_t c = want;
    for (int k = 0; k < 4; ++k) {
      x[k] = oracle::encode(oracle::kF64, u(rng) * std::ldexp(1, static_cast<int>(rng() % 60) - 30));
      y[k] = oracle::encode(oracle::kF64, u(rng));
      want = oracle::fma_bits(oracle::kF64, Rnd::rn, x[k], y[k], want);
    }
    ASSERT_EQ(block_fma(row, 4, x, y, c), want);
  }
}

// f64 NaNs (H100 probe, f64_m16n8k8/k16 tile edge_specials): inf * 0 and
// inf - inf give 0xfff8000000000000; a NaN operand 0x7ff8000000000000
// comes out unchanged, also when an invalid operation follows it. Other
// payloads propagate quietened (choice: the probe had no other NaN).
TEST(BlockFma, F64NaNs) {
  const NumericsRow& row = row_for(90, kMma, Elem::f64, Elem::f64);
  const uint64_t inf = 0x7ff0000000000000u, one = 0x3ff0000000000000u, qnan = 0x7ff8000000000000u;
  const uint64_t zero_inf[2] = {0, inf}, x[2] = {one, one};
  EXPECT_EQ(block_fma(row, 1, &zero_inf[1], &zero_inf[0], one), 0xfff8000000000000u);     // inf * 0
  EXPECT_EQ(block_fma(row, 1, &inf, x, inf | (uint64_t{1} << 63)), 0xfff8000000000000u);  // inf - inf
  EXPECT_EQ(block_fma(row, 1, x, x, qnan), qnan);
  const uint64_t nan_then_inf[2] = {qnan, inf | (uint64_t{1} << 63)};
  EXPECT_EQ(block_fma(row, 2, nan_then_inf, x, inf), qnan);
  const uint64_t snan = 0xfff0000000000001u;
  EXPECT_EQ(block_fma(row, 1, &snan, x, one), 0xfff8000000000001u);
}

// s8: 4 * 127 * 127 + (2^31 - 1000) wraps past INT32_MAX; .satfinite clamps.
TEST(BlockFma, IntegersWrapOrSaturate) {
  const NumericsRow& s8 = row_for(80, kMma, Elem::s8, Elem::s32);
  const uint64_t a[4] = {0x7f, 0x7f, 0x7f, 0x7f}, b[4] = {0x7f, 0x7f, 0x7f, 0x7f};
  const uint64_t c = 0x7fffffffu - 1000;
  const int64_t exact = 4 * 127 * 127 + int64_t{0x7fffffff} - 1000;
  EXPECT_EQ(block_fma(s8, 4, a, b, c), static_cast<uint32_t>(exact));
  EXPECT_EQ(block_fma(s8, 4, a, b, c, true), 0x7fffffffu);
  // -128 * 127 four times from INT32_MIN + 10: wraps; clamps to INT32_MIN.
  const uint64_t n[4] = {0x80, 0x80, 0x80, 0x80};
  EXPECT_EQ(block_fma(s8, 4, n, b, 0x8000000a), static_cast<uint32_t>(int64_t{INT32_MIN} + 10 - 4 * 128 * 127));
  EXPECT_EQ(block_fma(s8, 4, n, b, 0x8000000a, true), 0x80000000u);
  // u8 255 * 255 and s4/u4 sign handling: 0xf is -1 as s4, 15 as u4.
  const NumericsRow& u8 = row_for(80, kMma, Elem::u8, Elem::s32);
  const uint64_t ff[1] = {0xff};
  EXPECT_EQ(block_fma(u8, 1, ff, ff, 0), 65025u);
  const uint64_t f4[2] = {0xf, 0x7}, g4[2] = {0x3, 0x8};
  EXPECT_EQ(block_fma(row_for(80, kMma, Elem::s4, Elem::s32), 2, f4, g4, 0), static_cast<uint32_t>(-3 - 56));
  EXPECT_EQ(block_fma(row_for(80, kMma, Elem::u4, Elem::s32), 2, f4, g4, 0), 45u + 56u);
}

// NaN operands and inf * 0 give the canonical NaN; inf - inf NaN; an
// infinity alone stays.
TEST(BlockFma, SpecialValues) {
  const NumericsRow& row = row_for(80, kMma, Elem::f16, Elem::f32);
  const uint64_t inf = 0x7c00, ninf = 0xfc00, nan = 0x7e01, one = f16(1);
  const uint64_t a1[2] = {inf, one}, b1[2] = {one, one};
  EXPECT_EQ(block_fma(row, 2, a1, b1, 0), 0x7f800000u);
  const uint64_t a2[2] = {inf, ninf};
  EXPECT_EQ(block_fma(row, 2, a2, b1, 0), 0x7fffffffu);
  const uint64_t a3[2] = {inf, one}, b3[2] = {0, one};
  EXPECT_EQ(block_fma(row, 2, a3, b3, 0), 0x7fffffffu);
  const uint64_t a4[2] = {nan, one};
  EXPECT_EQ(block_fma(row, 2, a4, b1, 0), 0x7fffffffu);
  EXPECT_EQ(block_fma(row, 2, a1, b1, 0xff800000u), 0x7fffffffu);  // +inf product, c = -inf
  // Overflow gives the infinity also under truncation: 2^127 * 3 (bf16).
  const NumericsRow& bf = row_for(80, kMma, Elem::bf16, Elem::f32);
  const uint64_t big[1] = {0x7f00}, three[1] = {0x4040}, nbig[1] = {0xff00};
  EXPECT_EQ(block_fma(bf, 1, big, three, 0), 0x7f800000u);
  EXPECT_EQ(block_fma(bf, 1, nbig, three, 0), 0xff800000u);
  // A near-overflow sum that stays finite is truncated: (2 - 2^-7) * 2^127 * 1 = 0x7f7f0000.
  const uint64_t nearmax[1] = {0x7f7f}, one_bf[1] = {0x3f80};
  EXPECT_EQ(block_fma(bf, 1, nearmax, one_bf, 0), 0x7f7f0000u);
}

// The row fields no measured row varies, on modified copies: a row without
// subnormals reads and writes them as zeros; k_split and k_group deal pairs
// of k to the instructions in turn.
TEST(BlockFma, SubnormalFlushAndKGroupFields) {
  NumericsRow row = row_for(80, kMma, Elem::f16, Elem::f32);
  const uint64_t sub[1] = {0x0001}, one[1] = {0x3c00};  // 2^-24, 1
  EXPECT_EQ(block_fma(row, 1, sub, one, 0), 0x33800000u);
  row.subnormals = false;
  EXPECT_EQ(block_fma(row, 1, sub, one, 0), 0u);
  const uint64_t zero[1] = {0};
  EXPECT_EQ(block_fma(row, 1, zero, zero, 0x00400000u), 0u);  // c = 2^-127, subnormal in f32
  row.subnormals = true;
  EXPECT_EQ(block_fma(row, 1, zero, zero, 0x00400000u), 0x00400000u);
  // k_group 2 on a k16 chain of width 8: k 0,1,4,5,8,9,12,13 form the first
  // block, k 2,3,6,7,... the second. Four 2^-25 products at k 0,1,4,5 make
  // 2^-23 exactly in block one; 1 at k 2 joins in block two: 1 + 2^-23.
  // Ascending, the small products share the block with 1 and are lost: 1.
  NumericsRow dealt = row_for(80, kMma, Elem::f16, Elem::f32);
  std::vector<uint64_t> a = zeros(16), b = zeros(16);
  a[2] = b[2] = f16(1);
  for (int k : {0, 1, 4, 5}) a[k] = f16(std::ldexp(1, -12)), b[k] = f16(std::ldexp(1, -13));
  EXPECT_EQ(block_fma(dealt, 16, a.data(), b.data(), 0), 0x3f800000u);
  dealt.k_split = 2, dealt.k_group = 2;
  EXPECT_EQ(block_fma(dealt, 16, a.data(), b.data(), 0), 0x3f800001u);
}

// ---- The block observer (what --rtl-tensor's RTL check is shown).

struct SeenBlock {
  std::vector<uint64_t> a, b;
  uint64_t c, d;
};
struct Recorder final : BlockObserver {
  std::vector<SeenBlock> blocks;
  void block(const NumericsRow&, std::size_t n, const uint64_t* a, const uint64_t* b, uint64_t c, uint64_t d) override {
    blocks.push_back({std::vector<uint64_t>(a, a + n), std::vector<uint64_t>(b, b + n), c, d});
  }
};

// The value of a block against the oracle: `rule`'s one block from c.
uint64_t oracle_block(const Rule& rule, const SeenBlock& s) {
  std::vector<double> av, bv;
  for (std::size_t k = 0; k < s.a.size(); ++k)
    av.push_back(decode_input(rule.in, s.a[k])), bv.push_back(decode_input(rule.in, s.b[k]));
  return oracle_chain(rule, av, bv, oracle::decode(rule.out, s.c));
}

// sm_80 k16: two blocks of 8 in ascending k, the first from c, the second
// from the first's result, the chain's result the second's; sm_90 fp8 ->
// f16 k32: two f16 blocks of 16 (k mod 4 in {0, 1} widened into the first),
// the first from +0, and c added to the second's result apart. Each block
// as the oracle computes it; the observer changes no result.
TEST(BlockObserver, SeesEveryBlockOfTheChainWithItsOperands) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 200; ++t) {
    std::vector<uint64_t> a(16), b(16);
    for (int i = 0; i < 16; ++i) a[i] = random_input(rng, kInF16, 6), b[i] = random_input(rng, kInF16, 6);
    const uint64_t c = f32(t - 100.0);
    const NumericsRow& row = row_for(80, kMma, Elem::f16, Elem::f32);
    Recorder r;
    const uint64_t d = block_fma(row, 16, a.data(), b.data(), c, false, &r);
    ASSERT_EQ(d, block_fma(row, 16, a.data(), b.data(), c));
    ASSERT_EQ(r.blocks.size(), 2u);
    EXPECT_EQ(r.blocks[0].a, std::vector<uint64_t>(a.begin(), a.begin() + 8));
    EXPECT_EQ(r.blocks[1].b, std::vector<uint64_t>(b.begin() + 8, b.end()));
    EXPECT_EQ(r.blocks[0].c, c);
    EXPECT_EQ(r.blocks[1].c, r.blocks[0].d);
    EXPECT_EQ(r.blocks[1].d, d);
    for (const SeenBlock& s : r.blocks) EXPECT_EQ(s.d, oracle_block(expected_for(80, Elem::f16, Elem::f32).rule, s));
  }
  for (int t = 0; t < 200; ++t) {
    std::vector<uint64_t> a(32), b(32);
    for (int i = 0; i < 32; ++i) a[i] = random_input(rng, kInE4M3, 4), b[i] = random_input(rng, kInE4M3, 4);
    const uint64_t c = f16(t / 16.0 - 6);
    const NumericsRow& row = row_for(90, kMma, Elem::e4m3, Elem::f16);
    Recorder r;
    const uint64_t d = block_fma(row, 32, a.data(), b.data(), c, false, &r);
    ASSERT_EQ(d, block_fma(row, 32, a.data(), b.data(), c));
    ASSERT_EQ(r.blocks.size(), 2u);
    for (int k = 0; k < 32; ++k) {
      const SeenBlock& s = r.blocks[(k / 2) % 2];
      const std::size_t at = std::size_t(k / 4 * 2 + k % 2);
      EXPECT_EQ(decode_input(kInF16, s.a[at]), decode_input(kInE4M3, a[k])) << "k " << k;
      EXPECT_EQ(decode_input(kInF16, s.b[at]), decode_input(kInE4M3, b[k])) << "k " << k;
    }
    EXPECT_EQ(r.blocks[0].c, 0u);
    EXPECT_EQ(r.blocks[1].c, r.blocks[0].d);
    for (const SeenBlock& s : r.blocks) EXPECT_EQ(s.d, oracle_block(expected_for(90, Elem::f16, Elem::f16).rule, s));
    EXPECT_EQ(d, oracle::add(oracle::kF16, Rnd::rn, oracle::decode(oracle::kF16, r.blocks[1].d),
                             oracle::decode(oracle::kF16, c)));
  }
  Recorder none;  // no blocks: f64 and integers
  const uint64_t x[4] = {1, 2, 3, 4};
  block_fma(row_for(80, kMma, Elem::s8, Elem::s32), 4, x, x, 0, false, &none);
  block_fma(row_for(80, kMma, Elem::f64, Elem::f64), 4, x, x, 0, false, &none);
  EXPECT_TRUE(none.blocks.empty());
}

// Every row is well formed and its source says where it comes from.
TEST(NumericsRows, EveryRowCitesItsSource) {
  const RowTable t = numerics_rows();
  for (std::size_t i = 0; i < t.size; ++i) {
    EXPECT_FALSE(t.rows[i].source.empty()) << i;
    EXPECT_LE(t.rows[i].sm_first, t.rows[i].sm_last) << i;
  }
  EXPECT_EQ(find_row(80, kMma, Elem::bf16, Elem::f32), find_row(89, kWmma, Elem::bf16, Elem::f32));
  EXPECT_EQ(find_row(75, kMma, Elem::bf16, Elem::f32), nullptr);
}

}  // namespace
}  // namespace ptxfu::mma::test
