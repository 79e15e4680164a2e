// Differential tests against the MPFR oracle for sqrt and rcp: every f16 and
// bf16 value in the four rounding modes; edge cases and seeded random values
// for f32 and f64.
#include "fp_test_util.h"

namespace ptxfu::fptest {
namespace {

enum class UnOp { sqrt, rcp };

int run_one(const Fmt& fmt, UnOp op, fp::Rounding rnd, uint64_t a) {
  const fp::Policy p{rnd};
  const uint64_t got = op == UnOp::sqrt ? fp::sqrt(*fmt.core, a, p) : fp::rcp(*fmt.core, a, p);
  const uint64_t want =
      op == UnOp::sqrt ? oracle::sqrt_bits(fmt.spec, to_oracle(rnd), a) : oracle::rcp_bits(fmt.spec, to_oracle(rnd), a);
  EXPECT_EQ(hex(got), hex(want)) << (op == UnOp::sqrt ? "sqrt." : "rcp.") << mode_name(rnd) << "." << fmt.core->name
                                 << " " << hex(a);
  return got != want;
}

class FpExhaustive16 : public ::testing::TestWithParam<std::tuple<int, UnOp>> {};

TEST_P(FpExhaustive16, AllValuesAllModes) {
  const auto [fi, op] = GetParam();
  const Fmt& fmt = kFormats[fi];
  int bad = 0;
  for (fp::Rounding rnd : kModes)
    for (uint64_t a = 0; a <= 0xffff && bad < 10; ++a) bad += run_one(fmt, op, rnd, a);
  EXPECT_EQ(bad, 0);
}

INSTANTIATE_TEST_SUITE_P(F16BF16, FpExhaustive16,
                         ::testing::Combine(::testing::Values(0, 1), ::testing::Values(UnOp::sqrt, UnOp::rcp)),
                         [](const auto& i) {
                           return std::string(kFormats[std::get<0>(i.param)].core->name) +
                                  (std::get<1>(i.param) == UnOp::sqrt ? "_sqrt" : "_rcp");
                         });

class FpWide : public ::testing::TestWithParam<std::tuple<int, UnOp>> {};

TEST_P(FpWide, EdgesAndRandom) {
  const auto [fi, op] = GetParam();
  const Fmt& fmt = kFormats[fi];
  int bad = 0;
  const std::vector<uint64_t> edges = edge_values(*fmt.core);
  for (fp::Rounding rnd : kModes) {
    for (uint64_t a : edges) bad += run_one(fmt, op, rnd, a);
    Gen g(*fmt.core, 77 + fi);
    for (int i = 0; i < 100000 && bad < 10; ++i) bad += run_one(fmt, op, rnd, g.any_exp());
  }
  EXPECT_EQ(bad, 0);
}

INSTANTIATE_TEST_SUITE_P(F32F64, FpWide,
                         ::testing::Combine(::testing::Values(2, 3), ::testing::Values(UnOp::sqrt, UnOp::rcp)),
                         [](const auto& i) {
                           return std::string(kFormats[std::get<0>(i.param)].core->name) +
                                  (std::get<1>(i.param) == UnOp::sqrt ? "_sqrt" : "_rcp");
                         });

}  // namespace
}  // namespace ptxfu::fptest
