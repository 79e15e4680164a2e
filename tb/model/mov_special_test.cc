// What sim's programs may move: the special registers of a straight-line
// program (one CTA of --warps warps on SM 0, as the README says), vector mov
// (packing and unpacking, `_` sinks), mov.pred; checked in every warp of a
// CTA whose last warp is partial, against values computed here, in both
// timing styles, on two configs. And the loader's errors for what it refuses.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "models/simulator.h"

namespace ptxfu::models {
namespace {

constexpr const char* kProgram = R"(
.reg .b32 %s<22>;
.reg .b64 %c64;
.reg .b32 %x, %y, %z, %packed8;
.reg .b16 %h<4>, %pair;
.reg .b8 %q<4>;
.reg .b64 %d, %e;
.reg .b16 %u<4>;
.reg .b32 %hi;
.reg .pred %p<3>;
mov.u32 %s0, %clock;
mov.u64 %c64, %clock64;
mov.u32 %s1, %tid.x;
mov.u32 %s2, %tid.y;
mov.u32 %s3, %tid.z;
mov.u32 %s4, %ntid.x;
mov.u32 %s5, %ntid.y;
mov.u32 %s6, %ntid.z;
mov.u32 %s7, %laneid;
mov.u32 %s8, %warpid;
mov.u32 %s9, %nwarpid;
mov.u32 %s10, %smid;
mov.u32 %s11, %ctaid.x;
mov.u32 %s12, %ctaid.y;
mov.u32 %s13, %ctaid.z;
mov.u32 %s14, %nctaid.x;
mov.u32 %s15, %nctaid.y;
mov.u32 %s16, %nctaid.z;
mov.u32 %s17, %lanemask_eq;
mov.u32 %s18, %lanemask_lt;
mov.u32 %s19, %lanemask_le;
mov.u32 %s20, %lanemask_gt;
mov.u32 %s21, %lanemask_ge;
mad.lo.u32 %x, %s1, 0x9e3779b9, 0x7f4a7c15;
mov.b32 {%h0, %h1}, %x;
mov.b32 %y, {%h1, %h0};
mov.b32 {%q0, %q1, %q2, %q3}, %x;
mov.b32 %z, {%q3, %q2, %q1, %q0};
mov.b16 %pair, {%q2, %q0};
mov.b32 %packed8, {%q0, %q0, %q3, %q3};
mov.b64 %d, {%x, %y};
mov.b64 {%u0, %u1, %u2, %u3}, %d;
mov.b64 {_, %hi}, %d;
mov.b64 %e, {%u3, %u2, %u1, %u0};
mov.pred %p0, 1;
mov.pred %p1, %p0;
mov.pred %p2, 0;
)";

constexpr unsigned kWarps = 3;
constexpr unsigned kThreads = 80;  // the third warp has 16 threads

struct Run {
  std::string config;
  TimingStyle style;
};
const Run kRuns[] = {{"sm_90", TimingStyle::loosely_timed},
                     {"sm_90", TimingStyle::approximately_timed},
                     {"sm_75", TimingStyle::loosely_timed}};

struct Fixture {
  std::vector<ArchConfig> configs;
  std::vector<kernel::Kernel> programs;
  std::vector<SimResult> results;
  Fixture() {
    configs.reserve(std::size(kRuns));
    programs.reserve(std::size(kRuns));
    std::vector<SimJob> jobs;
    for (const Run& run : kRuns) {
      configs.push_back(load_config(run.config));
      programs.push_back(kernel::load_straight_line(kProgram, "mov_special", configs.back().caps));
      SimJob j;
      j.config = &configs.back();
      j.kernel = &programs.back();
      j.warps = kWarps;
      j.threads = kThreads;
      j.style = run.style;
      j.all_registers = true;
      jobs.push_back(j);
    }
    results = simulate(jobs);
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

uint64_t reg(size_t run, unsigned warp, const std::string& name, unsigned lane) {
  const Fixture& f = fixture();
  const kernel::Function& e = f.programs[run].entry();
  for (size_t r = 0; r < e.reg_names.size(); ++r)
    if (e.reg_names[r] == name) return f.results[run].registers[warp][r][lane];
  ADD_FAILURE() << "no register " << name;
  return 0;
}

TEST(MovSpecial, SpecialRegistersOfTheOneCtaModel) {
  const Fixture& f = fixture();
  for (size_t run = 0; run < std::size(kRuns); ++run)
    for (unsigned w = 0; w < kWarps; ++w)
      for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned tid = w * 32 + lane;
        const std::string what = fmt::format("{} warp {} lane {}", kRuns[run].config, w, lane);
        if (tid >= kThreads) {  // not a thread of the CTA: never written
          EXPECT_EQ(reg(run, w, "%s1", lane), 0u) << what;
          continue;
        }
        const uint32_t bit = 1u << lane;
        const uint64_t want[] = {
            0,  // %clock: checked below
            tid,        0, 0, kThreads, 1, 1, lane, w,       f.configs[run].max_warps, 0,
            0,          0, 0, 1,        1, 1, bit,  bit - 1, bit | (bit - 1),          ~(bit | (bit - 1)),
            ~(bit - 1),
        };
        for (unsigned k = 1; k < std::size(want); ++k)
          EXPECT_EQ(reg(run, w, fmt::format("%s{}", k), lane), want[k]) << what << " %s" << k;
      }
}

// %clock and %clock64 are the cycle the mov issues in: the same in every
// lane and in both styles; under GTO warp 0 issues first, in cycle 0, and
// its second instruction when the ALU is free again.
TEST(MovSpecial, ClockIsTheIssueCycle) {
  const Fixture& f = fixture();
  const Timing& alu = f.configs[0].units[static_cast<size_t>(Unit::alu)];
  for (size_t run = 0; run < std::size(kRuns); ++run)
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(reg(run, 0, "%s0", lane), 0u);
      EXPECT_EQ(reg(run, 0, "%c64", lane), f.configs[run].units[static_cast<size_t>(Unit::alu)].occupancy());
    }
  EXPECT_EQ(reg(0, 0, "%c64", 0), alu.occupancy());
  for (unsigned w = 0; w < kWarps; ++w) {
    EXPECT_EQ(reg(0, w, "%s0", 0), reg(1, w, "%s0", 0)) << w;
    EXPECT_EQ(reg(0, w, "%c64", 0), reg(1, w, "%c64", 0)) << w;
  }
  EXPECT_EQ(f.results[0].registers, f.results[1].registers);  // LT and AT, every register
  EXPECT_EQ(f.results[0].cycles, f.results[1].cycles);
}

TEST(MovSpecial, VectorPackAndUnpack) {
  for (size_t run = 0; run < std::size(kRuns); ++run)
    for (unsigned w = 0; w < kWarps; ++w)
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint32_t tid = w * 32 + lane;
        if (tid >= kThreads) continue;
        const uint32_t x = tid * 0x9e3779b9u + 0x7f4a7c15u;
        const uint32_t y = x >> 16 | x << 16;
        const uint8_t b[4] = {static_cast<uint8_t>(x), static_cast<uint8_t>(x >> 8), static_cast<uint8_t>(x >> 16),
                              static_cast<uint8_t>(x >> 24)};
        const uint64_t d = uint64_t{y} << 32 | x;
        const std::string what = fmt::format("{} warp {} lane {}", kRuns[run].config, w, lane);
        EXPECT_EQ(reg(run, w, "%x", lane), x) << what;
        EXPECT_EQ(reg(run, w, "%h0", lane), x & 0xffffu) << what;
        EXPECT_EQ(reg(run, w, "%h1", lane), x >> 16) << what;
        EXPECT_EQ(reg(run, w, "%y", lane), y) << what;
        for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(reg(run, w, fmt::format("%q{}", k), lane), b[k]) << what;
        EXPECT_EQ(reg(run, w, "%z", lane), __builtin_bswap32(x)) << what;
        EXPECT_EQ(reg(run, w, "%pair", lane), uint64_t{b[0]} << 8 | b[2]) << what;
        EXPECT_EQ(reg(run, w, "%packed8", lane), uint64_t{b[3]} << 24 | uint64_t{b[3]} << 16 | b[0] << 8 | b[0])
            << what;
        EXPECT_EQ(reg(run, w, "%d", lane), d) << what;
        for (unsigned k = 0; k < 4; ++k)
          EXPECT_EQ(reg(run, w, fmt::format("%u{}", k), lane), d >> (16 * k) & 0xffff) << what;
        EXPECT_EQ(reg(run, w, "%hi", lane), y) << what;
        EXPECT_EQ(reg(run, w, "%e", lane),
                  (d & 0xffff) << 48 | (d >> 16 & 0xffff) << 32 | (d >> 32 & 0xffff) << 16 | d >> 48)
            << what;
      }
}

TEST(MovSpecial, PredicateMoves) {
  for (size_t run = 0; run < std::size(kRuns); ++run)
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(reg(run, 1, "%p0", lane), 1u);
      EXPECT_EQ(reg(run, 1, "%p1", lane), 1u);
      EXPECT_EQ(reg(run, 1, "%p2", lane), 0u);
      EXPECT_EQ(reg(run, 2, "%p1", lane), lane < kThreads - 64 ? 1u : 0u);
    }
}

TEST(MovSpecial, LoaderErrors) {
  const ArchConfig c = default_config();
  struct Case {
    std::string text;
    std::string expect;
  };
  const std::string regs = ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .b64 %d;\n.reg .f32 %f;\n.reg .pred %p;\n";
  // The checker's words, which are ptxas's (tb/unit/isa/mov_check_test.cc).
  const Case cases[] = {
      {regs + "mov.b32 %r0, {%h0, %h1, %h2};\n", "p.ptx:6:14: error: Illegal vector size: 3"},
      {regs + "mov.b32 %r0, {%h0, %r1};\n", "p.ptx:6:14: error: Arguments mismatch for instruction 'mov'"},
      {regs + "mov.b64 {%h0, %r1}, %d;\n", "p.ptx:6:9: error: Arguments mismatch for instruction 'mov'"},
      {regs + "mov.f32 %f, {%h0, %h1};\n", "p.ptx:6:4: error: Unexpected instruction types specified for 'mov'"},
      {regs + "mov.b32 {%h0, %h1}, {%h2, %h3};\n", "p.ptx:6:1: error: Arguments mismatch for instruction 'mov'"},
      {regs + "mov.u32 %r0, %clock64;\n", "p.ptx:6:14: error: Arguments mismatch for instruction 'mov'"},
      {regs + "mov.u32 %r0, %tid;\n", "p.ptx:6:14: error: Argument vector size mismatch for instruction 'mov'"},
      {regs + "mov.pred %p, %r0;\n", "p.ptx:6:14: error: Arguments mismatch for instruction 'mov'"},
      {regs + "mov.b8 %r0, 1;\n", "p.ptx:6:1: error: Unexpected instruction types specified for 'mov'"},
      {regs + "@%r0 mov.u32 %r0, 1;\n", "p.ptx:6:2: error: Predicate expression expected"},
  };
  for (const auto& k : cases) {
    try {
      kernel::load_straight_line(k.text, "p.ptx", c.caps);
      ADD_FAILURE() << "accepted: " << k.text;
    } catch (const kernel::KernelError& e) {
      EXPECT_NE(std::string(e.what()).find(k.expect), std::string::npos)
          << "expected '" << k.expect << "' got: " << e.what();
    }
  }
}

}  // namespace
}  // namespace ptxfu::models
