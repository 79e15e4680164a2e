// Timing against the model's documented rules, computed from the config's
// numbers as read from its YAML file here (yaml-cpp, not the model's loader);
// and the carry flag as per-thread state across instructions and
// interleaved warps (a 128-bit addition in four instructions).
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/simulator.h"

namespace ptxfu::models {
namespace {

constexpr const char* kChain =
    ".reg .f32 %f<4>;\n"
    "mov.f32 %f1, 0f3f800000;\n"
    "mov.f32 %f2, 0f40000000;\n"
    "fma.rn.f32 %f3, %f1, %f2, %f1;\n"
    "fma.rn.f32 %f3, %f3, %f2, %f1;\n"
    "fma.rn.f32 %f3, %f3, %f2, %f1;\n";

// a = tid-derived 128-bit values, b likewise; x = a + b with a carry chain.
constexpr const char* kAdd128 =
    ".reg .b32 %a<4>;\n.reg .b32 %b<4>;\n.reg .b32 %x<4>;\n.reg .b32 %t;\n"
    "mov.u32 %t, %tid.x;\n"
    "mad.lo.u32 %a0, %t, 0x9e3779b9, 0xfffffff0;\n"
    "mad.lo.u32 %a1, %t, 0x85ebca6b, 0xffffffff;\n"
    "mad.lo.u32 %a2, %t, 0xc2b2ae35, 0x7fffffff;\n"
    "mad.lo.u32 %a3, %t, 0x27d4eb2f, 0x12345678;\n"
    "mad.lo.u32 %b0, %t, 0x165667b1, 0x0000001f;\n"
    "mad.lo.u32 %b1, %t, 0xd3a2646c, 0x00000000;\n"
    "mad.lo.u32 %b2, %t, 0xfd7046c5, 0x80000001;\n"
    "mad.lo.u32 %b3, %t, 0xb55a4f09, 0x0badf00d;\n"
    "add.cc.u32 %x0, %a0, %b0;\n"
    "addc.cc.u32 %x1, %a1, %b1;\n"
    "addc.cc.u32 %x2, %a2, %b2;\n"
    "addc.u32 %x3, %a3, %b3;\n";

constexpr unsigned kPartialThreads = 20;

// configs/sm_90.yaml's `dependencies:` entry for (producer, consumer); 0: none.
unsigned yaml_dependency(const YAML::Node& config, const std::string& producer, const std::string& consumer) {
  for (const YAML::Node& d : config["dependencies"]) {
    if (d["producer"].as<std::string>() != producer) continue;
    const YAML::Node c = d["consumer"];
    if (c.IsScalar() ? c.as<std::string>() == consumer : std::any_of(c.begin(), c.end(), [&](const YAML::Node& n) {
          return n.as<std::string>() == consumer;
        }))
      return d["latency"].as<unsigned>();
  }
  return 0;
}

// A unit's occupancy as the README defines it: 32 / lanes * interval (default 1).
unsigned yaml_occupancy(const YAML::Node& unit) {
  return 32 / unit["lanes"].as<unsigned>() * (unit["interval"] ? unit["interval"].as<unsigned>() : 1);
}

class TimingTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    config_ = load_config_text(std::string(embedded_configs().back().text), "sm_100");  // any config
    for (const auto& e : embedded_configs())
      if (e.name == "sm_90") config_ = load_config_text(std::string(e.text), "sm_90");
    lrr_ = config_;
    lrr_.scheduler = SchedulerPolicy::lrr;
    chain_ = kernel::load_straight_line(kChain, "chain", config_.caps);
    add128_ = kernel::load_straight_line(kAdd128, "add128", config_.caps);
    auto job = [](const ArchConfig& c, const kernel::Kernel& p, unsigned warps, TimingStyle style,
                  unsigned threads = 0) {
      SimJob j;
      j.config = &c;
      j.kernel = &p;
      j.warps = warps;
      j.style = style;
      j.threads = threads;
      return j;
    };
    results_ = simulate(
        {job(config_, chain_, 1, TimingStyle::loosely_timed), job(config_, add128_, 1, TimingStyle::loosely_timed),
         job(lrr_, add128_, 16, TimingStyle::loosely_timed),  // warps interleave
         job(lrr_, add128_, 16, TimingStyle::approximately_timed),
         job(config_, add128_, 1, TimingStyle::loosely_timed, kPartialThreads),  // lanes 20..31 inactive
         job(config_, add128_, 1, TimingStyle::approximately_timed, kPartialThreads)});
  }
  static ArchConfig config_, lrr_;
  static kernel::Kernel chain_, add128_;
  static std::vector<SimResult> results_;
};
ArchConfig TimingTest::config_, TimingTest::lrr_;
kernel::Kernel TimingTest::chain_, TimingTest::add128_;
std::vector<SimResult> TimingTest::results_;

TEST_F(TimingTest, DependentChainFollowsTheConfig) {
  const YAML::Node yaml = YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/sm_90.yaml");
  const YAML::Node alu = yaml["units"]["alu"];
  const unsigned fma_latency = yaml["units"]["fma"]["latency"].as<unsigned>();
  // A reader waits for the writer's latency and for its dependencies: entry.
  const unsigned alu_to_fma = std::max(alu["latency"].as<unsigned>(), yaml_dependency(yaml, "alu", "fma"));
  const unsigned fma_to_fma = std::max(fma_latency, yaml_dependency(yaml, "fma", "fma"));
  EXPECT_EQ(alu_to_fma, 5u);  // sm_90.yaml: {producer: alu, consumer: [fma, ...], latency: 5}
  // mov at 0, the second mov when the ALU is free again, the first fma when
  // both movs' results reach it, two dependent fmas, the last fma's result;
  // the program's exit issues on the branch unit the cycle after the last
  // fma, and the CTA retires when both are out.
  const uint64_t first_fma = yaml_occupancy(alu) + alu_to_fma;
  const uint64_t last_fma = first_fma + 2 * fma_to_fma;
  const uint64_t exit_done = last_fma + 1 + yaml["units"]["branch"]["latency"].as<unsigned>();
  EXPECT_EQ(results_[0].cycles, std::max<uint64_t>(last_fma + fma_latency, exit_done));
  EXPECT_EQ(results_[0].warp_instructions, 6u);  // and the exit
  // 1.0 * 2 + 1 = 3, 3 * 2 + 1 = 7, 7 * 2 + 1 = 15
  EXPECT_EQ(results_[0].warp0_registers[3][0], 0x41700000u);
}

void expect_add128(const SimResult& r, const std::string& what) {
  auto word = [&](size_t reg, size_t lane) { return static_cast<unsigned __int128>(r.warp0_registers[reg][lane]); };
  for (size_t lane = 0; lane < 32; ++lane) {
    unsigned __int128 a = 0, b = 0, x = 0;
    for (int k = 3; k >= 0; --k) {
      a = a << 32 | word(0 + k, lane);
      b = b << 32 | word(4 + k, lane);
      x = x << 32 | word(8 + k, lane);
    }
    EXPECT_TRUE(x == a + b) << what << " lane " << lane;
  }
}

TEST_F(TimingTest, CarryChainAddsIn128Bits) { expect_add128(results_[1], "one warp"); }
TEST_F(TimingTest, CarryIsPerThreadAcrossInterleavedWarps) {
  expect_add128(results_[2], "16 warps, loose round-robin, LT");
  expect_add128(results_[3], "16 warps, loose round-robin, AT");
  EXPECT_EQ(results_[2].cycles, results_[3].cycles);
}

}  // namespace
}  // namespace ptxfu::models

namespace ptxfu::models {
namespace {

// A CTA of 20 threads: its one warp's active mask has lanes 0..19, and only
// they execute and are written (registers and the carry flag); the timing is
// the full warp's.
TEST_F(TimingTest, TheActiveMaskGatesEveryLaneEffect) {
  const SimResult& full = results_[1];
  for (size_t k : {4, 5}) {
    const SimResult& r = results_[k];
    expect_add128(r, k == 4 ? "20 threads, LT" : "20 threads, AT");
    EXPECT_EQ(r.cycles, full.cycles);
    EXPECT_EQ(r.warp_instructions, full.warp_instructions);
    for (size_t reg = 0; reg < r.warp0_registers.size(); ++reg)
      for (size_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(r.warp0_registers[reg][lane], lane < kPartialThreads ? full.warp0_registers[reg][lane] : 0u)
            << "register " << reg << " lane " << lane;
  }
}

}  // namespace
}  // namespace ptxfu::models
