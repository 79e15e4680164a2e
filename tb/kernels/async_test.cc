// The asynchronous copies, mbarriers, elect.sync, bar.warp.sync and the
// reserved shared memory (hand-written kernels in async.ptx, answers from
// the PTX ISA's definitions), and the corpus kernels that use them
// (cp_async_gemm, coop_tiles, mbarrier_pipeline) against host references.
// Functional here; the same tests on the SM model in the .model executable.
#include <cmath>
#include <tuple>

#include "kernel_test_util.h"

namespace ptxfu::kernel::testing {
namespace {

TEST(Async, CopiesZeroFillPastSrcSizeAndLandByTheirWaits) {
  const Kernel k = load_handwritten("async.ptx", "copies");
  std::vector<uint8_t> in(512);
  SplitMix64 rng{11};
  for (auto& b : in) b = static_cast<uint8_t>(rng.next() | 1);  // no zero bytes: a fill shows
  Launch l;
  l.block = {32};
  l.args = {Arg::buffer(in), Arg::zeros(32 * 32)};
  const auto out = run_ok(k, l).memory.arg_buffer(1)->bytes;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned size = lane < 8 ? 4 : lane < 16 ? 8 : 16;
    const unsigned src = std::min(lane % 17, size);
    for (unsigned b = 0; b < 16; ++b) {
      const uint8_t want = b < src ? in[lane * 16 + b] : 0;  // zero-filled to the copy size, untouched after
      ASSERT_EQ(out[lane * 32 + b], want) << "lane " << lane << " byte " << b;
      ASSERT_EQ(out[lane * 32 + 16 + b], 0) << "lane " << lane << ": ignore-src copies zeros";
    }
  }
}

TEST(Async, MbarrierPhasesCountsAndTokensFollowThePtxIsa) {
  const Kernel k = load_handwritten("async.ptx", "mbar");
  Launch l;
  l.block = {32};
  l.args = {Arg::zeros(64)};
  const auto out = values_of<uint32_t>(run_ok(k, l).memory, 0);
  const uint32_t want[] = {0, 1, 1, 1, 0, 0, 1, 1, 31, 1, 1, 4, 1u << 4};
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(out[i], want[i]) << "out[" << i << "]";
}

TEST(Async, ReservedSharedMemoryComesFirst) {
  const Kernel k = load_handwritten("async.ptx", "reserved");
  EXPECT_EQ(k.reserved_shared, kReservedSmemBytes);
  Launch l;
  l.args = {Arg::zeros(24)};
  const auto out = values_of<uint32_t>(run_ok(k, l).memory, 0);
  const uint32_t want[] = {
      0, kReservedSmemBytes, kReservedSmemBytes, kReservedSmemSlot0, kReservedSmemSlot1, kReservedSmemBytes};
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(out[i], want[i]) << "out[" << i << "]";
  EXPECT_EQ(load_handwritten("async.ptx", "copies").reserved_shared, 0u) << "only kernels that read them";
}

#ifndef PTXFU_KERNELS_ON_MODEL
// What the PTX ISA leaves undefined or forbids is a fault naming the line, warp and lane.
TEST(Async, MisuseIsAFaultNamingTheLane) {
  const std::string head =
      ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
      "  .reg .b64 %rd<4>;\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n  .shared .align 16 .b8 s[64];\n";
  const std::pair<std::string, std::string> cases[] = {
      {"  mbarrier.arrive.shared.b64 %rd1, [s];\n",
       "k.ptx:10:3: error: 'mbarrier.arrive.shared.b64' in warp 0 of block (0,0,0): lane 0: no mbarrier at "
       "__shared__ 0x0: it was not initialised (mbarrier.init) or was invalidated"},
      {"  mbarrier.init.shared.b64 [s], 1;\n  mbarrier.arrive.shared.b64 %rd1, [s], 2;\n",
       "lane 0: arrive count 2 on the mbarrier at __shared__ 0x0, which has 1 arrivals pending"},
      {"  mbarrier.init.shared.b64 [s], 1;\n  mbarrier.arrive.noComplete.shared.b64 %rd1, [s], 1;\n",
       "mbarrier.arrive.noComplete would complete the phase of the mbarrier at __shared__ 0x0"},
      {"  mbarrier.init.shared.b64 [s], 0;\n", "mbarrier.init count 0 is outside 1 to 1048575"},
      {"  mbarrier.init.shared.b64 [s+4], 1;\n",
       "Invalid __shared__ write of size 8 bytes at 0x4 by thread (0,0,0) in block (0,0,0), warp 0, lane 0 "
       "('mbarrier.init.shared.b64'): an mbarrier object is 8-byte aligned"},
      {"  cp.async.ca.shared.global [s+4], [%rd1], 8;\n", "address is misaligned: it must be a multiple of 8"},
      {"  mov.u32 %r1, 5;\n  cp.async.ca.shared.global [s], [%rd1], 4, %r1;\n",
       "src-size 5 is larger than the copy size 4"},
  };
  for (const auto& [body, message] : cases) {
    const Kernel k = load_kernel(head + body + "  ret;\n}\n", "k.ptx");
    Launch l;
    l.block = {1};
    const RunResult r = run_functional(k, l);
    EXPECT_FALSE(r.ok) << body;
    EXPECT_TRUE(Contains(r.error, message)) << body;
  }
}

TEST(Async, AWaitThatNeverCompletesNamesTheBarrierAndItsWarps) {
  const Kernel k = load_handwritten("async.ptx", "hang");
  Launch l;
  l.block = {64};
  const RunResult r = run_functional(k, l, {20000});
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "step limit of 20000"));
  EXPECT_TRUE(Contains(r.error,
                       "a wait on the mbarrier at __shared__ 0x0 in block (0,0,0) never completes (phase 0: "
                       "1 of 65 arrivals pending, tx-count 0): warps 0, 1 wait on it"));
}
#endif

// ---- cp_async_gemm.cu: C = A B, each element an fma chain in k order

class CpAsyncGemm : public ::testing::TestWithParam<std::string> {};

TEST_P(CpAsyncGemm, DoubleBufferedTilesMatchHost) {
  const Kernel k = load_corpus("cp_async_gemm", GetParam(), "_Z13cp_async_gemmPKfS0_Pfiii");
  for (const auto& [m, n, kk] : {std::tuple{32u, 32u, 28u}, {20u, 24u, 52u}}) {
    SplitMix64 rng{m * 131 + kk};
    std::vector<float> a(m * kk), b(kk * n);
    for (auto& v : a) v = rng.uniform(-2, 2);
    for (auto& v : b) v = rng.uniform(-2, 2);
    Launch l;
    l.grid = {(n + 15) / 16, (m + 15) / 16};
    l.block = {16, 16};
    l.args = {Arg::buffer(bytes_of(a)),
              Arg::buffer(bytes_of(b)),
              Arg::zeros(m * n * 4),
              Arg::s32(m),
              Arg::s32(n),
              Arg::s32(kk)};
    const auto c = values_of<float>(run_ok(k, l).memory, 2);
    for (uint32_t r = 0; r < m; ++r)
      for (uint32_t col = 0; col < n; ++col) {
        float acc = 0;
        for (uint32_t i = 0; i < kk; ++i) acc = std::fma(a[r * kk + i], b[i * n + col], acc);
        ASSERT_EQ(bits_of(c[r * n + col]), bits_of(acc)) << "C[" << r << "][" << col << "] m " << m << " k " << kk;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, CpAsyncGemm, ::testing::Values("sm_75", "sm_80", "sm_90", "sm_100"));

// ---- coop_tiles.cu: tiled_partition<64> and __syncwarp

class CoopTiles : public ::testing::TestWithParam<std::string> {};

TEST_P(CoopTiles, MultiWarpTilesSumTheirInputs) {
  const Kernel k = load_corpus("coop_tiles", GetParam(), "_Z11tile64_sumsPKjPjS1_");
  const uint32_t grid = 3, n = grid * 256;
  SplitMix64 rng{64};
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = static_cast<uint32_t>(rng.next());
  Launch l;
  l.grid = {grid};
  l.block = {256};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(grid * 4 * 4), Arg::zeros(n * 4)};
  const RunResult r = run_ok(k, l);
  const auto sums = values_of<uint32_t>(r.memory, 1);
  const auto ranks = values_of<uint32_t>(r.memory, 2);
  for (uint32_t t = 0; t < grid * 4; ++t) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < 64; ++i) s += in[t * 64 + i];
    ASSERT_EQ(sums[t], s) << "tile " << t;
  }
  for (uint32_t g = 0; g < n; ++g) ASSERT_EQ(ranks[g], (g % 64) | ((g % 256) / 64) << 8 | 64u << 16) << "thread " << g;
}

// Before sm_80 nvcc gives the tile's barrier word a null address (cooperative groups keeps it in
// the reserved shared memory from sm_80 on): that kernel faults, on the model as on a GPU.
INSTANTIATE_TEST_SUITE_P(Archs, CoopTiles, ::testing::Values("sm_80", "sm_90", "sm_100"));

// ---- mbarrier_pipeline.cu: a producer warp, two consumer warps

class MbarrierPipeline : public ::testing::TestWithParam<std::string> {};

TEST_P(MbarrierPipeline, ConsumersSeeEveryChunkOnce) {
  const Kernel k = load_corpus("mbarrier_pipeline", GetParam(), "_Z17mbarrier_pipelinePKjPjS1_j");
  for (const uint32_t chunks : {1u, 7u}) {
    SplitMix64 rng{chunks};
    std::vector<uint32_t> in(chunks * 64);
    for (auto& v : in) v = static_cast<uint32_t>(rng.next());
    Launch l;
    l.block = {96};
    l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(chunks * 256), Arg::zeros(256), Arg::u32(chunks)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint32_t>(r.memory, 1);
    const auto sums = values_of<uint32_t>(r.memory, 2);
    for (uint32_t t = 0; t < 64; ++t) {
      uint32_t s = 0;
      for (uint32_t c = 0; c < chunks; ++c) {
        const uint32_t v = in[c * 64 + t] * 3 + c;
        ASSERT_EQ(out[c * 64 + t], v) << "chunk " << c << " thread " << t;
        s += v;
      }
      ASSERT_EQ(sums[t], s) << "thread " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, MbarrierPipeline, ::testing::Values("sm_80", "sm_90", "sm_100"));

}  // namespace
}  // namespace ptxfu::kernel::testing
