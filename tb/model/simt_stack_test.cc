// The SIMT reconvergence stack (models/simt_stack.h) on the shapes a kernel's
// control flow makes: straight line, a uniform branch, an if/else, an if
// without else, nested divergence that reconverges at one point, a loop
// whose lanes leave at different trips.
#include "models/simt_stack.h"

#include <gtest/gtest.h>

namespace ptxfu::models {
namespace {

TEST(SimtStack, StraightLineKeepsTheLanesThatExist) {
  SimtStack s;
  s.reset(0, 0x000fffffu);  // a last warp of 20 threads
  for (uint32_t pc = 1; pc < 10; ++pc) s.advance(pc);
  EXPECT_EQ(s.pc(), 9u);
  EXPECT_EQ(s.active_mask(), 0x000fffffu);
  EXPECT_EQ(s.depth(), 1u);
}

TEST(SimtStack, UniformBranchDoesNotDiverge) {
  SimtStack s;
  s.reset(3, ~0u);
  s.branch(~0u, 10, 4, 12);
  EXPECT_EQ(s.pc(), 10u);
  EXPECT_EQ(s.depth(), 1u);
  s.branch(0, 20, 11, 30);
  EXPECT_EQ(s.pc(), 11u);
  EXPECT_EQ(s.active_mask(), ~0u);
}

// 2: @p bra 6;  3..5: else path, 5: bra 8;  6..7: then path;  8: join
TEST(SimtStack, IfElseRunsEachPathWithItsLanesThenReconverges) {
  SimtStack s;
  s.reset(2, ~0u);
  s.branch(0x0000ffffu, 6, 3, 8);
  EXPECT_EQ(s.depth(), 3u);
  EXPECT_EQ(s.pc(), 6u);  // the taken path first
  EXPECT_EQ(s.active_mask(), 0x0000ffffu);
  s.advance(7);
  s.advance(8);  // reaches the join: popped
  EXPECT_EQ(s.pc(), 3u);
  EXPECT_EQ(s.active_mask(), 0xffff0000u);
  s.advance(4);
  s.advance(5);
  s.branch(~0u, 8, 6, 8);  // the else path's jump over the then path
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 8u);
  EXPECT_EQ(s.active_mask(), ~0u);
}

// 1: @p bra 4 (skip the body);  2..3: body;  4: join. The taken path starts
// at the join: only the body runs, with the other lanes.
TEST(SimtStack, IfWithoutElse) {
  SimtStack s;
  s.reset(1, 0xffu);
  s.branch(0x0fu, 4, 2, 4);
  EXPECT_EQ(s.depth(), 2u);
  EXPECT_EQ(s.pc(), 2u);
  EXPECT_EQ(s.active_mask(), 0xf0u);
  s.advance(3);
  s.advance(4);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.active_mask(), 0xffu);
}

// Two nested ifs that end at the same instruction: reaching it pops both
// levels at once.
TEST(SimtStack, NestedDivergenceReconvergingAtOnePoint) {
  SimtStack s;
  s.reset(0, ~0u);
  s.branch(0xffff0000u, 9, 1, 9);  // outer: upper half skips to 9
  ASSERT_EQ(s.active_mask(), 0x0000ffffu);
  s.branch(0x000000ffu, 9, 2, 9);  // inner: low byte skips to 9 as well
  EXPECT_EQ(s.active_mask(), 0x0000ff00u);
  EXPECT_EQ(s.depth(), 2u);  // one entry waits at 9 for both levels
  s.advance(9);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.pc(), 9u);
  EXPECT_EQ(s.active_mask(), ~0u);
}

// 0: body;  1: @p bra 0 (back edge);  2: after the loop. Lane k leaves after
// k + 1 trips: the exiting lanes wait at 2 while the others loop.
TEST(SimtStack, LoopWithLanesLeavingAtDifferentTrips) {
  SimtStack s;
  s.reset(0, 0xfu);
  for (uint32_t trip = 0; trip < 4; ++trip) {
    EXPECT_EQ(s.pc(), 0u);
    EXPECT_EQ(s.active_mask(), 0xfu & ~((1u << trip) - 1)) << trip;
    s.advance(1);
    const uint32_t stay = s.active_mask() & ~(1u << trip);
    s.branch(stay, 0, 2, 2);
    EXPECT_LE(s.depth(), 2u) << trip;
  }
  EXPECT_EQ(s.pc(), 2u);
  EXPECT_EQ(s.depth(), 1u);
  EXPECT_EQ(s.active_mask(), 0xfu);
}

}  // namespace
}  // namespace ptxfu::models
