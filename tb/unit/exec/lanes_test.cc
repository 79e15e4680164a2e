// The warp-wide path (exec::execute_lanes: the float array forms, the
// integer lane loop) against the one-lane path (exec::execute, itself checked
// against MPFR and wider host integers) on every legal form of the table:
// seeded random operands, structured edge values and random active masks.
// Inactive lanes keep what was in the result array.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "exec/execute.h"
#include "isa/forms.h"
#include "isa/table.h"

namespace ptxfu::exec {
namespace {

constexpr uint64_t kEdges[] = {0,
                               1,
                               0x7f,
                               0x80,
                               0xff,
                               0x7fff,
                               0x8000,
                               0xffff,
                               0x3c00,  // f16 1.0
                               0x7c00,  // f16 +inf
                               0x7e00,  // f16 NaN
                               0x7fffffff,
                               0x80000000,
                               0xffffffff,
                               0x3f800000,  // f32 1.0
                               0x7f800000,  // f32 +inf
                               0x00000001,  // f32 smallest subnormal
                               0x7fffffffffffffff,
                               0x8000000000000000,
                               0xffffffffffffffff,
                               0x3ff0000000000000};  // f64 1.0

TEST(ExecLanes, WarpPathEqualsLanePathOnEveryForm) {
  std::mt19937_64 rng(20261123);
  size_t forms = 0, lanes_checked = 0;
  isa::for_each_legal_form([&](const isa::Instr& in) {
    // The warp path's contract: one destination, at most four sources, and
    // no carry (the kernels and models send the others lane by lane).
    if (in.num_src > 4 || isa::reads_carry(in) || isa::writes_carry(in)) return;
    ++forms;
    for (int round = 0; round < 4; ++round) {
      uint64_t src[4][kMaxLanes] = {};
      for (unsigned k = 0; k < in.num_src; ++k) {
        // Zero-extended to the operand's width, as the executors take them.
        const unsigned bits = isa::src_bits(in, k);
        const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        for (unsigned lane = 0; lane < kMaxLanes; ++lane)
          src[k][lane] = ((rng() & 3) == 0 ? kEdges[rng() % std::size(kEdges)] : rng()) & mask;
      }
      const uint32_t active = round == 0 ? ~uint32_t{0} : static_cast<uint32_t>(rng());
      constexpr uint64_t kUntouched = 0x5a5a5a5a5a5a5a5a;
      uint64_t results[kMaxLanes];
      std::fill(std::begin(results), std::end(results), kUntouched);
      uint32_t carry_out = 0;
      const uint64_t* sources[] = {src[0], src[1], src[2], src[3]};
      execute_lanes(in, sources, kMaxLanes, active, 0, results, carry_out);
      for (unsigned lane = 0; lane < kMaxLanes; ++lane) {
        if (!(active >> lane & 1)) {
          ASSERT_EQ(results[lane], kUntouched) << isa::spell(in) << " lane " << lane;
          continue;
        }
        uint64_t one[4] = {};
        for (unsigned k = 0; k < in.num_src; ++k) one[k] = src[k][lane];
        const Result expected = execute(in, one, false);
        ASSERT_EQ(results[lane], expected.value) << isa::spell(in) << " lane " << lane << " sources " << std::hex
                                                 << one[0] << " " << one[1] << " " << one[2] << " " << one[3];
        ++lanes_checked;
      }
    }
  });
  EXPECT_GT(forms, 3000u);
  EXPECT_GT(lanes_checked, 100000u);
}

}  // namespace
}  // namespace ptxfu::exec
