// The loosely-timed and approximately-timed styles give the same cycle
// counts, stalls and unit statistics on the same programs; the registers a
// warp ends with equal the exact core evaluated lane by lane; the carry flag
// is per-thread state that survives between instructions.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>
#include <systemc>

#include "exec/execute.h"
#include "isa/table.h"
#include "models/simulator.h"

namespace ptxfu::models {
namespace {

// A seeded random straight-line program over every unit, with dependencies:
// its text, and the same program as the test's own list of operations.
struct RandomOp {
  const char* mnemonic;
  unsigned num_src;
  char dest, src;  // register families: r (b32), f (f32), d (f64), w (b64)
  int regs[4];     // destination, then sources
};
struct RandomProgram {
  std::string text;
  std::vector<RandomOp> ops;
};

RandomProgram random_program(uint32_t seed, unsigned length) {
  std::mt19937 rng(seed);
  const RandomOp forms[] = {
      {"fma.rn.f32", 3, 'f', 'f', {}},         {"add.s32", 2, 'r', 'r', {}},
      {"mad.lo.s32", 3, 'r', 'r', {}},         {"fma.rn.f16x2", 3, 'r', 'r', {}},
      {"ex2.approx.ftz.f32", 1, 'f', 'f', {}}, {"fma.rn.f64", 3, 'd', 'd', {}},
      {"popc.b32", 1, 'r', 'r', {}},           {"min.f32", 2, 'f', 'f', {}},
      {"div.rn.f32", 2, 'f', 'f', {}},         {"mul.wide.u32", 2, 'w', 'r', {}},
      {"add.cc.u32", 2, 'r', 'r', {}},         {"addc.cc.u32", 2, 'r', 'r', {}},
  };
  RandomProgram p;
  p.text = ".reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .f64 %d<8>;\n.reg .b64 %w<8>;\n";
  for (int i = 0; i < 8; ++i)
    p.text += fmt::format(
        "mov.u32 %r{0}, %tid.x;\nmov.f32 %f{0}, 0f3f{1:02x}0000;\nmov.f64 %d{0}, 0d40{1:02x}000000000000;\n", i,
        0x80 + i);
  std::uniform_int_distribution<int> pick(0, std::size(forms) - 1), reg(0, 3);  // few registers: many dependencies
  for (unsigned i = 0; i < length; ++i) {
    RandomOp op = forms[pick(rng)];
    for (int& r : op.regs) r = reg(rng);
    p.text += fmt::format("{} %{}{}", op.mnemonic, op.dest, op.regs[0]);
    for (unsigned k = 0; k < op.num_src; ++k) p.text += fmt::format(", %{}{}", op.src, op.regs[k + 1]);
    p.text += ";\n";
    p.ops.push_back(op);
  }
  return p;
}

// The register slot of %<family><index>: the declarations' order.
size_t slot(char family, int index) {
  const std::string families = "rfdw";
  return families.find(family) * 8 + static_cast<size_t>(index);
}

// The program run directly through the exact core, one lane at a time, from
// the test's own list of operations.
std::vector<std::vector<uint64_t>> reference_registers(const RandomProgram& p, uint32_t warp) {
  std::vector<std::vector<uint64_t>> regs(32, std::vector<uint64_t>(32));
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 8; ++i) {
      regs[slot('r', i)][lane] = warp * 32 + lane;  // %tid.x
      regs[slot('f', i)][lane] = uint64_t{0x3f000000} | uint64_t(0x80 + i) << 16;
      regs[slot('d', i)][lane] = uint64_t{0x4000000000000000} | uint64_t(0x80 + i) << 48;
    }
    bool carry = false;
    for (const RandomOp& op : p.ops) {
      isa::Instr in;
      isa::Diagnostic d;
      EXPECT_TRUE(isa::decode(op.mnemonic, op.num_src, 1, in, d)) << d.message;
      uint64_t src[4];
      for (unsigned k = 0; k < op.num_src; ++k) src[k] = regs[slot(op.src, op.regs[k + 1])][lane];
      const exec::Result r = exec::execute(in, src, carry);
      regs[slot(op.dest, op.regs[0])][lane] = r.value;
      if (isa::writes_carry(in)) carry = r.carry_out;
    }
  }
  return regs;
}

struct Case {
  std::string config;
  unsigned warps;
  uint32_t seed;
};

class StyleEquivalence : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const auto& e : embedded_configs())
      configs_.push_back(load_config_text(std::string(e.text), std::string(e.name)));
    for (const char* cfg : {"sm_75", "sm_90"})  // sm_75: FP64 occupancy exceeds its latency
      for (unsigned warps : {1u, 8u, 32u})
        for (uint32_t seed : {1u, 2u, 3u}) cases_.push_back({cfg, warps, seed});
    kernels_.reserve(cases_.size());
    std::vector<SimJob> jobs;
    for (const Case& c : cases_) {
      const ArchConfig* cfg = nullptr;
      for (const auto& a : configs_)
        if (a.name == c.config) cfg = &a;
      programs_.push_back(random_program(c.seed, 120));
      kernels_.push_back(kernel::load_straight_line(programs_.back().text, fmt::format("random{}", c.seed), cfg->caps));
      for (TimingStyle style : {TimingStyle::loosely_timed, TimingStyle::approximately_timed}) {
        SimJob j;
        j.config = cfg;
        j.kernel = &kernels_.back();
        j.warps = c.warps;
        j.style = style;
        j.quantum_cycles = 64;  // small: exercises temporal decoupling syncs
        jobs.push_back(j);
      }
    }
    results_ = simulate(jobs);
  }
  static std::vector<ArchConfig> configs_;
  static std::vector<Case> cases_;
  static std::vector<RandomProgram> programs_;
  static std::vector<kernel::Kernel> kernels_;
  static std::vector<SimResult> results_;
};
std::vector<ArchConfig> StyleEquivalence::configs_;
std::vector<Case> StyleEquivalence::cases_;
std::vector<RandomProgram> StyleEquivalence::programs_;
std::vector<kernel::Kernel> StyleEquivalence::kernels_;
std::vector<SimResult> StyleEquivalence::results_;

TEST_F(StyleEquivalence, LooselyAndApproximatelyTimedAgree) {
  for (size_t i = 0; i < cases_.size(); ++i) {
    const SimResult& lt = results_[2 * i];
    const SimResult& at = results_[2 * i + 1];
    const std::string what = fmt::format("{} warps={} seed={}", cases_[i].config, cases_[i].warps, cases_[i].seed);
    EXPECT_EQ(lt.cycles, at.cycles) << what;
    EXPECT_EQ(lt.warp_instructions, at.warp_instructions) << what;
    EXPECT_EQ(lt.stalls, at.stalls) << what;
    for (size_t u = 0; u < lt.units.size(); ++u) EXPECT_EQ(lt.units[u].busy_cycles, at.units[u].busy_cycles) << what;
    EXPECT_EQ(lt.warp0_registers, at.warp0_registers) << what;
    // Every instruction of the program, and its exit, once per warp.
    EXPECT_EQ(lt.warp_instructions, uint64_t{cases_[i].warps} * (24 + programs_[i].ops.size() + 1)) << what;
  }
}

TEST_F(StyleEquivalence, SimulatedTimeEndsWithTheLastResult) {
  uint64_t last = 0;
  for (const auto& r : results_) last = std::max(last, r.cycles);
  EXPECT_GE(results_.front().simulated_cycles, last);
}

TEST_F(StyleEquivalence, RegistersEqualTheExactCore) {
  for (size_t i = 0; i < cases_.size(); ++i)
    EXPECT_EQ(results_[2 * i].warp0_registers, reference_registers(programs_[i], 0))
        << cases_[i].config << " seed " << cases_[i].seed;
}

TEST_F(StyleEquivalence, StallsAccountForEveryIdleIssueSlot) {
  for (size_t i = 0; i < cases_.size(); ++i) {
    const SimResult& r = results_[2 * i];
    uint64_t stalls = 0;
    for (uint64_t s : r.stalls) stalls += s;
    // issue_width 1: each sub-partition cycle either issues or stalls.
    EXPECT_EQ(stalls + r.warp_instructions, r.cycles * 4) << cases_[i].config;
  }
}

}  // namespace
}  // namespace ptxfu::models
