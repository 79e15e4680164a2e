// The generated interpolation tables: their shape (segments, coefficient
// widths, printed for the record), exactness at segment starts, and that the
// evaluation follows the documented fixed-point datapath.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "approx/tables.h"

namespace ptxfu::approx {
namespace {

std::vector<const QuadTable*> all_tables() {
  const MufuTables& t = mufu_tables();
  std::vector<const QuadTable*> v = {&t.rcp, &t.sqrt_even, &t.sqrt_odd, &t.rsqrt_even, &t.rsqrt_odd,
                                     &t.ex2, &t.lg2,       &t.sinc_q,   &t.cos_q};
  for (const QuadTable& q : t.tanh) v.push_back(&q);
  return v;
}

TEST(MufuTables, ShapeAndCoefficientWidths) {
  for (const QuadTable* q : all_tables()) {
    ASSERT_EQ(q->segments().size(), size_t{1} << q->index_bits()) << q->name();
    std::cout << q->name() << ": " << q->segments().size() << " segments, value 2^-" << q->frac_bits()
              << ", c0/c1/c2 widths " << q->coef_width(0) << "/" << q->coef_width(1) << "/" << q->coef_width(2)
              << " bits\n";
    // the linear and quadratic terms are much narrower than c0, as in an SFU
    EXPECT_LT(q->coef_width(1), q->coef_width(0)) << q->name();
    EXPECT_LT(q->coef_width(2), q->coef_width(1)) << q->name();
  }
}

TEST(MufuTables, ExactAtSegmentStarts) {
  const MufuTables& t = mufu_tables();
  EXPECT_EQ(t.rcp.eval(0, 23), int64_t{1} << 30);        // 1/1
  EXPECT_EQ(t.sqrt_even.eval(0, 23), int64_t{1} << 30);  // sqrt(1)
  EXPECT_EQ(t.ex2.eval(0, 32), int64_t{1} << 30);        // 2^0
  EXPECT_EQ(t.ex2.eval(uint64_t{1} << 31, 32), std::llround(std::sqrt(2.0L) * (1 << 30)));
  EXPECT_EQ(t.lg2.eval(0, 23), 0);  // log2(1)
  EXPECT_EQ(t.sinc_q.eval(0, 30), std::llround(std::acos(-1.0L) / 2 * (1 << 30)));
  EXPECT_EQ(t.cos_q.eval(0, 30), int64_t{1} << 30);
}

TEST(MufuTables, EvaluationIsTheDocumentedDatapath) {
  const QuadTable& q = mufu_tables().rcp;
  const int s = 23 - q.index_bits();
  for (uint64_t u : {0x000000ull, 0x7fffffull, 0x123456ull, 0x400000ull, 0x3ffffull}) {
    const QuadSegment& c = q.segments()[u >> s];
    const int64_t d = static_cast<int64_t>(u & ((uint64_t{1} << s) - 1));
    const int64_t want = c.c0 + ((c.c1 * d) >> s) + ((c.c2 * ((d * d) >> s)) >> s);
    EXPECT_EQ(q.eval(u, 23), want) << std::hex << u;
  }
}

}  // namespace
}  // namespace ptxfu::approx
