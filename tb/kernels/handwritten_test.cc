// Hand-written kernels (simt.ptx) whose answers are known by construction:
// divergence and reconvergence, barriers, atomics, shuffles, votes, calls
// and exit.
#include <algorithm>
#include <set>
#include <tuple>

#include "kernel_test_util.h"

namespace ptxfu::kernel::testing {
namespace {

uint32_t lanes_where(uint32_t valid, bool (*pred)(unsigned)) {
  uint32_t m = 0;
  for (unsigned l = 0; l < 32; ++l)
    if ((valid >> l & 1) && pred(l)) m |= 1u << l;
  return m;
}

TEST(Simt, NestedBranchesAndLoopsReconvergeAtThePostDominator) {
  const Kernel k = load_handwritten("simt.ptx", "nested");
  for (uint32_t block : {32u, 64u, 45u}) {
    Launch l;
    l.block = {block};
    l.args = {Arg::zeros(block * 16)};
    const auto out = values_of<uint32_t>(run_ok(k, l).memory, 0);
    for (uint32_t t = 0; t < block; ++t) {
      const uint32_t warp_lanes = block - t / 32 * 32 >= 32 ? 0xffffffffu : (1u << (block - t / 32 * 32)) - 1;
      const unsigned lane = t % 32;
      uint32_t inner;
      if (lane % 2 == 0)
        inner = lanes_where(
            warp_lanes,
            lane % 4 == 2 ? +[](unsigned l) { return l % 4 == 2; } : +[](unsigned l) { return l % 4 == 0; });
      else
        inner = lanes_where(
            warp_lanes, (lane & 4) ? +[](unsigned l) { return l % 2 == 1 && (l & 4) != 0; }
                                   : +[](unsigned l) { return l % 2 == 1 && (l & 4) == 0; });
      EXPECT_EQ(out[t * 4 + 0], inner) << "tid " << t << " block " << block;
      EXPECT_EQ(out[t * 4 + 1], warp_lanes) << "tid " << t;
      EXPECT_EQ(out[t * 4 + 2], t == 0 ? 0 : t * (t - 1) / 2) << "tid " << t;
      EXPECT_EQ(out[t * 4 + 3], warp_lanes) << "tid " << t;
    }
  }
}

TEST(Simt, BarrierHoldsEveryWarpUntilAllArrive) {
  const Kernel k = load_handwritten("simt.ptx", "barrier");
  for (uint32_t block : {64u, 256u, 1024u}) {
    Launch l;
    l.block = {block};
    l.grid = {2};
    l.args = {Arg::zeros(block * 4)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint32_t>(r.memory, 0);
    for (uint32_t t = 0; t < block; ++t) ASSERT_EQ(out[t], (t + 32) % block * 3) << "tid " << t << " block " << block;
  }
}

TEST(Simt, AtomicsCountEveryThreadInLaneOrder) {
  const Kernel k = load_handwritten("simt.ptx", "atomics");
  for (const auto& [grid, block] : {std::tuple{1u, 32u}, {3u, 64u}, {2u, 96u}}) {
    const uint32_t n = grid * block;
    std::vector<uint32_t> c(16, 0);
    c[3] = 0xffffffffu;                   // min starts high
    c[2] = static_cast<uint32_t>(-1000);  // max starts low
    c[13] = 5;
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.args = {Arg::buffer(bytes_of(c)), Arg::zeros(n * 4), Arg::zeros(n * 4)};
    const RunResult r = run_ok(k, l);
    const auto got = values_of<uint32_t>(r.memory, 0);
    const auto olds = values_of<uint32_t>(r.memory, 1);
    const auto exch = values_of<uint32_t>(r.memory, 2);
    EXPECT_EQ(got[0], n);
    std::set<uint32_t> distinct(olds.begin(), olds.end());
    EXPECT_EQ(distinct.size(), n) << "every atom.add returned a different old value";
    EXPECT_EQ(*distinct.rbegin(), n - 1);
    for (uint32_t t = 0; t < n; ++t) {  // lane-serialised: lane l follows lane l-1 of its warp
      if (t % 32 != 0 && t % block != 0) {
        EXPECT_EQ(olds[t], olds[t - 1] + 1) << "tid " << t;
      }
    }
    EXPECT_EQ(got[1], n % 10);
    int32_t mx = -1000;
    uint32_t mn = 0xffffffffu, orv = 0, xr = 0;
    for (uint32_t t = 0; t < n; ++t) {
      const int32_t v = static_cast<int32_t>(t * 37 % 1001) - 500;
      mx = std::max(mx, v);
      mn = std::min(mn, static_cast<uint32_t>(v));
      orv |= 1u << (t % 32);
      xr ^= t;
    }
    EXPECT_EQ(static_cast<int32_t>(got[2]), mx);
    EXPECT_EQ(got[3], mn);
    EXPECT_EQ(got[4], orv);
    EXPECT_EQ(got[5], xr);
#ifdef PTXFU_KERNELS_ON_MODEL
    // The SM model issues warps in its scheduler's order: within a warp the
    // lanes still exchange in lane order, and the exchanges form one chain
    // from the initial 0 through every thread.
    for (uint32_t t = 1; t < n; ++t) {
      if (t % 32 != 0) {
        EXPECT_EQ(exch[t], t - 1) << "exchanges run in lane order";
      }
    }
    std::multiset<uint32_t> chain(exch.begin(), exch.end());
    chain.insert(got[6]);
    std::multiset<uint32_t> want{0};
    for (uint32_t t = 0; t < n; ++t) want.insert(t);
    EXPECT_TRUE(chain == want) << "every exchange returned the previous one's value";
#else
    EXPECT_EQ(got[6], n - 1) << "the last exchange is the last thread's";
    for (uint32_t t = 1; t < n; ++t) EXPECT_EQ(exch[t], t - 1) << "exchanges run in lane order, warps in turn";
#endif
    EXPECT_EQ(float_of(got[7]), static_cast<float>(n));
    EXPECT_EQ(got[8] & 0xffff, fp16_of_integer(n));
    EXPECT_EQ(got[8] >> 16, fp16_of_integer(2 * n));
    EXPECT_EQ(got[10] | uint64_t{got[11]} << 32, n * ((uint64_t{1} << 32) + 1));
    EXPECT_EQ(got[12], 3 * n) << "the atom.cas retry loop";
    uint32_t dec = 5;
    for (uint32_t t = 0; t < n; ++t) dec = dec == 0 || dec > 1000 ? 1000 : dec - 1;
    EXPECT_EQ(got[13], dec);
    EXPECT_EQ(got[14], n) << "shared-memory atomics, then one red per CTA";
  }
}

TEST(Simt, ShufflesMatchAHostPermutation) {
  const Kernel k = load_handwritten("simt.ptx", "shuffles");
  for (uint32_t block : {32u, 96u}) {
    Launch l;
    l.block = {block};
    l.args = {Arg::zeros(5 * block * 4), Arg::zeros(5 * block * 4)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint32_t>(r.memory, 0);
    const auto pred = values_of<uint32_t>(r.memory, 1);
    for (uint32_t t = 0; t < block; ++t) {
      const uint32_t lane = t % 32, base = t / 32 * 1000;
      auto value = [&](uint32_t src) { return src * 7 + base; };
      // PTX ISA, shfl.sync: c = clamp | segmask << 8
      struct Want {
        uint32_t src;
        bool ok;
      };
      auto up = [&]() -> Want { return lane >= 3 ? Want{lane - 3, true} : Want{lane, false}; };
      auto down = [&]() -> Want { return lane + 5 <= 31 ? Want{lane + 5, true} : Want{lane, false}; };
      auto bfly = [&]() -> Want { return {lane ^ 0x13u, true}; };
      auto idx = [&]() -> Want { return {lane * 5 % 32, true}; };
      auto seg = [&]() -> Want {  // width 8: segmask 0x18, clamp 31
        const uint32_t min_lane = lane & 0x18, max_lane = min_lane | 7;
        const uint32_t j = min_lane | ((lane + 3) & 7);
        return j <= max_lane ? Want{j, true} : Want{lane, false};
      };
      const Want want[5] = {up(), down(), bfly(), idx(), seg()};
      for (unsigned m = 0; m < 5; ++m) {
        EXPECT_EQ(out[m * block + t], value(want[m].src)) << "mode " << m << " tid " << t;
        EXPECT_EQ(pred[m * block + t], want[m].ok ? 1u : 0u) << "mode " << m << " tid " << t;
      }
    }
  }
}

TEST(Simt, VotesMatchAndReductions) {
  const Kernel k = load_handwritten("simt.ptx", "votes");
  const uint32_t n = 128;
  SplitMix64 rng{5};
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = static_cast<uint32_t>(rng.next());
  for (uint32_t t = 32; t < 64; ++t) in[t] |= 1;        // warp 1: all odd
  for (uint32_t t = 64; t < 96; ++t) in[t] &= ~0x301u;  // warp 2: all even, same match key
  Launch l;
  l.block = {n};
  l.args = {Arg::buffer(bytes_of(in)), Arg::zeros(n * 32), Arg::zeros(n * 8)};
  const RunResult r = run_ok(k, l);
  const auto out = values_of<uint32_t>(r.memory, 1);
  const auto out2 = values_of<uint32_t>(r.memory, 2);
  for (uint32_t w = 0; w < n / 32; ++w) {
    uint32_t ballot = 0, sum = 0, umax = 0;
    int32_t smin = INT32_MAX;
    for (unsigned l2 = 0; l2 < 32; ++l2) {
      const uint32_t v = in[w * 32 + l2];
      ballot |= (v & 1) << l2;
      sum += v & 255;
      smin = std::min(smin, static_cast<int32_t>(v));
      umax = std::max(umax, v);
    }
    const bool all_same_key = std::all_of(in.begin() + w * 32, in.begin() + w * 32 + 32,
                                          [&](uint32_t v) { return (v >> 8 & 3) == (in[w * 32] >> 8 & 3); });
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint32_t t = w * 32 + lane;
      uint32_t same = 0;
      for (unsigned o = 0; o < 32; ++o)
        if ((in[w * 32 + o] >> 8 & 3) == (in[t] >> 8 & 3)) same |= 1u << o;
      EXPECT_EQ(out[t * 8 + 0], ballot) << "warp " << w;
      EXPECT_EQ(out[t * 8 + 1], ballot == 0xffffffffu ? 1u : 0u);
      EXPECT_EQ(out[t * 8 + 2], ballot != 0 ? 1u : 0u);
      EXPECT_EQ(out[t * 8 + 3], ballot == 0 || ballot == 0xffffffffu ? 1u : 0u);
      EXPECT_EQ(out[t * 8 + 4], same) << "match.any, tid " << t;
      EXPECT_EQ(out[t * 8 + 5], all_same_key ? 0xffffffffu : 0u) << "match.all, warp " << w;
      EXPECT_EQ(out[t * 8 + 6], all_same_key ? 1u : 0u);
      EXPECT_EQ(out[t * 8 + 7], sum);
      EXPECT_EQ(static_cast<int32_t>(out2[t * 2]), smin);
      EXPECT_EQ(out2[t * 2 + 1], umax);
    }
  }
}

TEST(Simt, CallsReturnFromDivergentBranchesAndExitedLanesStayOut) {
  const Kernel k = load_handwritten("simt.ptx", "calls");
  for (uint32_t block : {32u, 100u}) {
    Launch l;
    l.block = {block};
    l.args = {Arg::buffer(std::vector<uint8_t>(block * 4, 0xee))};
    const auto out = values_of<uint32_t>(run_ok(k, l).memory, 0);
    for (uint32_t t = 0; t < block; ++t) {
      const uint32_t f = t % 2 ? 3 * t : t + t / 2 * 10;
      const uint32_t want = t % 5 == 4 ? 0xeeeeeeeeu : t % 3 == 0 ? f : f + 1;
      EXPECT_EQ(out[t], want) << "tid " << t;
    }
  }
}

// The reconvergence points come from the control-flow graph: every branch
// of `nested` reconverges where its paths must meet.
TEST(Simt, ImmediatePostDominatorsOfNested) {
  const Kernel k = load_handwritten("simt.ptx", "nested");
  auto pc_at_line = [&](unsigned line) {
    for (uint32_t pc = 0; pc < k.insts.size(); ++pc)
      if (k.insts[pc].line == line && k.insts[pc].kind != Kind::func_end) return pc;
    ADD_FAILURE() << "no instruction on line " << line;
    return kNoPc;
  };
  auto line = [&](const std::string& text) {
    const std::string src = read_file(std::string(PTXFU_KERNELS_DIR) + "/simt.ptx");
    unsigned n = 1;
    for (size_t i = 0; i < src.find(text); ++i) n += src[i] == '\n';
    return n;
  };
  const uint32_t join = pc_at_line(line("JOIN:") + 1), loop_end = pc_at_line(line("LOOP_END:") + 1);
  EXPECT_EQ(k.insts[pc_at_line(line("@%p1 bra \tODD;"))].ipdom, join);
  EXPECT_EQ(k.insts[pc_at_line(line("@!%p2 bra \tEVEN_LOW;"))].ipdom, join);
  EXPECT_EQ(k.insts[pc_at_line(line("@%p2 bra \tODD_LOW;"))].ipdom, join);
  EXPECT_EQ(k.insts[pc_at_line(line("@%p3 bra \tLOOP_END;"))].ipdom, loop_end);
  EXPECT_EQ(k.insts[pc_at_line(line("@%p3 bra \tLOOP;"))].ipdom, loop_end);
}

// What step() reports to a timing model.
TEST(Simt, StepReportsUnitsLanesRegistersAndBarrierWaits) {
  const Kernel k = load_handwritten("simt.ptx", "barrier");
  Launch l;
  l.block = {64};
  l.args = {Arg::zeros(64 * 4)};
  Memory m = make_memory(k, l);
  Cta cta(k, l, {0, 0, 0});
  ASSERT_EQ(cta.warps.size(), 2u);
  StepResult r = step(cta.warps[0], cta, m, 0);
  ASSERT_EQ(r.status, StepResult::Status::executed);
  EXPECT_EQ(r.inst->kind, Kind::ld);
  EXPECT_EQ(r.inst->unit(), Unit::memory);
  EXPECT_EQ(r.inst->space, Space::param);
  EXPECT_EQ(r.inst->access_bytes, 8);
  EXPECT_EQ(r.active_lanes, 32u);
  EXPECT_EQ(r.inst->num_writes, 1);
  EXPECT_EQ(r.inst->num_reads, 0);
  EXPECT_EQ(r.space, Space::param);
  EXPECT_EQ(r.addresses[31], 0u) << "the parameter's offset";
  r = step(cta.warps[0], cta, m, 0);  // mov.u32 %r1, %tid.x
  EXPECT_EQ(r.inst->kind, Kind::mov);
  EXPECT_EQ(r.inst->unit(), Unit::pipe);
  // Run warp 0 to the barrier: it waits there until warp 1 arrives.
  unsigned guard = 0;
  StepResult prev;
  while (r.status == StepResult::Status::executed && ++guard < 10000) {
    prev = r;
    r = step(cta.warps[0], cta, m, 0);
  }
  ASSERT_EQ(r.status, StepResult::Status::waiting);
  EXPECT_EQ(r.inst->kind, Kind::bar);
  EXPECT_EQ(prev.inst->kind, Kind::st);  // st.shared.u32 [%r8], %r5: slot tid
  EXPECT_EQ(prev.space, Space::shared);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(prev.addresses[lane], 4u * lane);
  EXPECT_EQ(r.inst->unit(), Unit::warp);
  EXPECT_TRUE(cta.warps[0].waiting());
  EXPECT_EQ(step(cta.warps[0], cta, m, 0).status, StepResult::Status::waiting) << "a waiting warp does not run";
  StepResult s;
  do s = step(cta.warps[1], cta, m, 0);
  while (s.status == StepResult::Status::executed && s.inst->kind != Kind::bar);
  EXPECT_EQ(s.inst->kind, Kind::bar);
  EXPECT_EQ(s.status, StepResult::Status::executed) << "the last warp to arrive releases the barrier";
  EXPECT_FALSE(cta.warps[0].waiting());
  while ((r = step(cta.warps[0], cta, m, 0)).status == StepResult::Status::executed) {
  }
  EXPECT_EQ(r.status, StepResult::Status::waiting) << "the second bar.sync";
  while ((s = step(cta.warps[1], cta, m, 0)).status == StepResult::Status::executed) {
  }
  EXPECT_EQ(s.status, StepResult::Status::exited);
  EXPECT_EQ(step(cta.warps[0], cta, m, 0).status, StepResult::Status::exited);
  EXPECT_TRUE(cta.done());
}

// Divergence as the timing model sees it: the lanes of each path.
TEST(Simt, StepReportsDivergentActiveMasks) {
  const Kernel k = load_handwritten("simt.ptx", "nested");
  Launch l;
  l.block = {32};
  l.args = {Arg::zeros(32 * 16)};
  Memory m = make_memory(k, l);
  Cta cta(k, l, {0, 0, 0});
  std::set<uint32_t> masks;
  uint64_t clock = 0;
  for (StepResult r; (r = step(cta.warps[0], cta, m, clock++)).status == StepResult::Status::executed;) {
    masks.insert(r.active);
    EXPECT_EQ(r.active_lanes, static_cast<unsigned>(__builtin_popcount(r.active)));
    EXPECT_EQ(r.executed & ~r.active, 0u);
  }
  EXPECT_TRUE(masks.count(0xffffffffu));
  EXPECT_TRUE(masks.count(0x55555555u)) << "the even lanes";
  EXPECT_TRUE(masks.count(0x44444444u)) << "tid % 4 == 2";
  EXPECT_TRUE(masks.count(0x0a0a0a0au)) << "odd lanes with bit 2 clear";
  EXPECT_TRUE(masks.count(0xfffffffcu)) << "the loop's third trip: lanes 2 to 31";
}

// cluster.ptx: .shared::cluster stores, atomics and loads through
// mapa.shared::cluster, on three cluster shapes.
TEST(Cluster, PeersSharedMemoryAndTheClusterRegisters) {
  const Kernel k = load_handwritten("cluster.ptx", "exchange");
  for (const auto& [grid, cluster, block] : {std::tuple{4u, 2u, 64u}, {6u, 3u, 32u}, {8u, 8u, 48u}}) {
    Launch l;
    l.grid = {grid};
    l.block = {block};
    l.cluster = {cluster};
    l.args = {Arg::zeros(grid * block * 4), Arg::zeros(grid * 20)};
    const RunResult r = run_ok(k, l);
    const auto out = values_of<uint32_t>(r.memory, 0);
    const auto info = values_of<uint32_t>(r.memory, 1);
    for (uint32_t b = 0; b < grid; ++b) {
      const uint32_t rank = b % cluster, previous = (rank + cluster - 1) % cluster;
      for (uint32_t t = 0; t < block; ++t)  // the previous rank's store; the next rank's threads' adds
        ASSERT_EQ(out[b * block + t], previous * 1000 + t + (block << 16)) << "block " << b << " thread " << t;
      EXPECT_EQ(info[5 * b], b / cluster);
      EXPECT_EQ(info[5 * b + 1], grid / cluster);
      EXPECT_EQ(info[5 * b + 2], rank);
      EXPECT_EQ(info[5 * b + 3], cluster);
      EXPECT_EQ(info[5 * b + 4], 1u);
    }
  }
}

}  // namespace
}  // namespace ptxfu::kernel::testing
