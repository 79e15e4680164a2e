// The exhaustive check's pieces: its oracle agrees with MPFR (a second,
// independent oracle) on seeded random and structured operands for every
// op, format and rounding; one shard of one form runs clean, as CI's share
// of scripts/exhaustive.sh; bad requests are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <vector>

#include "exhaustive/half_oracle.h"
#include "exhaustive/pair_check.h"
#include "oracle/mpfr_oracle.h"

namespace ptxfu::exhaustive {
namespace {

namespace orc = ptxfu::oracle;

std::vector<uint16_t> operands(std::mt19937& rng) {
  std::vector<uint16_t> v;
  for (uint16_t sign : {0x0000, 0x8000})  // zeros, subnormal edges, one, max, inf, NaN of both formats
    for (uint16_t m : {0x0000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0x7e00, 0x007f, 0x0080, 0x3f80, 0x7f7f,
                       0x7f80, 0x7fc0})
      v.push_back(static_cast<uint16_t>(sign | m));
  for (int i = 0; i < 3000; ++i) v.push_back(static_cast<uint16_t>(rng()));
  return v;
}

TEST(HalfOracle, AgreesWithMpfr) {
  std::mt19937 rng(11);
  const std::vector<uint16_t> ops = operands(rng);
  struct Fmt {
    HalfFormat half;
    orc::Spec spec;
  };
  const HalfRounding modes[] = {HalfRounding::rn, HalfRounding::rz, HalfRounding::rm, HalfRounding::rp};
  const orc::Rnd orc_modes[] = {orc::Rnd::rn, orc::Rnd::rz, orc::Rnd::rm, orc::Rnd::rp};
  uint64_t checked = 0;
  for (const Fmt& f : {Fmt{kHalfF16, orc::kF16}, Fmt{kHalfBF16, orc::kBF16}})
    for (int m = 0; m < 4; ++m)
      for (size_t i = 0; i < ops.size(); i += 7)
        for (size_t j = 0; j < ops.size(); j += 5) {
          const uint16_t a = ops[i], b = ops[j];
          const double x = orc::decode(f.spec, a), y = orc::decode(f.spec, b);
          const double v = half_value(f.half, a);
          ASSERT_TRUE(std::isnan(x) ? std::isnan(v) : v == x && std::signbit(v) == std::signbit(x)) << std::hex << a;
          ASSERT_EQ(half_reference(f.half, HalfOp::add, modes[m], a, b), orc::add(f.spec, orc_modes[m], x, y))
              << "add mode " << m << std::hex << " " << a << " " << b;
          ASSERT_EQ(half_reference(f.half, HalfOp::sub, modes[m], a, b), orc::sub(f.spec, orc_modes[m], x, y))
              << "sub mode " << m << std::hex << " " << a << " " << b;
          ASSERT_EQ(half_reference(f.half, HalfOp::mul, modes[m], a, b), orc::mul(f.spec, orc_modes[m], x, y))
              << "mul mode " << m << std::hex << " " << a << " " << b;
          checked += 3;
        }
  EXPECT_GT(checked, 1000000u);
}

// min/max from the ISA's pseudo-code: +0 > -0, one NaN gives the other
// operand, .NaN gives the canonical NaN.
TEST(HalfOracle, MinMaxFollowTheIsa) {
  EXPECT_EQ(half_reference(kHalfF16, HalfOp::min, HalfRounding::rn, 0x0000, 0x8000), 0x8000);
  EXPECT_EQ(half_reference(kHalfF16, HalfOp::max, HalfRounding::rn, 0x8000, 0x0000), 0x0000);
  EXPECT_EQ(half_reference(kHalfF16, HalfOp::min, HalfRounding::rn, 0x7e01, 0xbc00), 0xbc00);
  EXPECT_EQ(half_reference(kHalfF16, HalfOp::max, HalfRounding::rn, 0x3c00, 0xfe00), 0x3c00);
  EXPECT_EQ(half_reference(kHalfF16, HalfOp::min_nan, HalfRounding::rn, 0x3c00, 0xfe00), 0x7fff);
  EXPECT_EQ(half_reference(kHalfBF16, HalfOp::max, HalfRounding::rn, 0x7fc1, 0x7f81), 0x7fff);
  EXPECT_EQ(half_reference(kHalfBF16, HalfOp::min, HalfRounding::rn, 0xbf80, 0x3f80), 0xbf80);
}

// CI's share of scripts/exhaustive.sh: 1/64 of add.rn.f16's 2^32 pairs and
// 1/256 of add.rn.bf16's.
TEST(PairCheck, OneShardRunsClean) {
  for (const auto& [form, shard, shards] : {std::tuple{"add.rn.f16", 5u, 64u}, std::tuple{"add.rn.bf16", 200u, 256u}}) {
    PairCheckOptions o;
    o.form = form;
    o.shard_index = shard;
    o.shard_count = shards;
    std::ostringstream report;
    std::string error;
    const auto r = check_pairs(o, report, error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->pairs, uint64_t{65536} * 65536 / shards);
    EXPECT_EQ(r->mismatches, 0u) << report.str();
  }
}

TEST(PairCheck, RefusesWhatItDoesNotCover) {
  std::ostringstream report;
  std::string error;
  PairCheckOptions o;
  o.form = "fma.rn.f16";
  EXPECT_FALSE(check_pairs(o, report, error));
  o.form = "add.rn.f32";
  EXPECT_FALSE(check_pairs(o, report, error));
  EXPECT_NE(error.find("f16"), std::string::npos) << error;
  o.form = "add.ftz.f16";
  EXPECT_FALSE(check_pairs(o, report, error));
  o.form = "add.rn.f16";
  o.shard_index = 4;
  o.shard_count = 4;
  EXPECT_FALSE(check_pairs(o, report, error));
}

}  // namespace
}  // namespace ptxfu::exhaustive
