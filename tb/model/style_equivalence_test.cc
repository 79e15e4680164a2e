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

// A seeded random straight-line program over every unit, with dependencies.
std::string random_program(uint32_t seed, unsigned length) {
  std::mt19937 rng(seed);
  const char* forms[] = {
      "fma.rn.f32 %f{}, %f{}, %f{}, %f{}",
      "add.s32 %r{}, %r{}, %r{}",
      "mad.lo.s32 %r{}, %r{}, %r{}, %r{}",
      "fma.rn.f16x2 %r{}, %r{}, %r{}, %r{}",
      "ex2.approx.ftz.f32 %f{}, %f{}",
      "fma.rn.f64 %d{}, %d{}, %d{}, %d{}",
      "popc.b32 %r{}, %r{}",
      "min.f32 %f{}, %f{}, %f{}",
      "div.rn.f32 %f{}, %f{}, %f{}",
      "mul.wide.u32 %w{}, %r{}, %r{}",
      "add.cc.u32 %r{}, %r{}, %r{}",
      "addc.cc.u32 %r{}, %r{}, %r{}",
  };
  std::string s = ".reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .f64 %d<8>;\n.reg .b64 %w<8>;\n";
  for (int i = 0; i < 8; ++i)
    s += fmt::format(
        "mov.u32 %r{0}, %tid.x;\nmov.f32 %f{0}, 0f3f{1:02x}0000;\nmov.f64 %d{0}, 0d40{1:02x}000000000000;\n", i,
        0x80 + i);
  std::uniform_int_distribution<int> pick(0, std::size(forms) - 1), reg(0, 3);  // few registers: many dependencies
  for (unsigned i = 0; i < length; ++i)
    s += fmt::vformat(forms[pick(rng)], fmt::make_format_args(reg(rng), reg(rng), reg(rng), reg(rng))) + ";\n";
  return s;
}

// Runs the program directly through the exact core, one lane at a time.
std::vector<std::vector<uint64_t>> reference_registers(const Program& p, uint32_t warp) {
  std::vector<std::vector<uint64_t>> regs(p.registers.size(), std::vector<uint64_t>(32));
  for (unsigned lane = 0; lane < 32; ++lane) {
    bool carry = false;
    for (const ProgramInstr& pi : p.code) {
      uint64_t src[4];
      for (unsigned k = 0; k < pi.num_src; ++k) {
        const SourceOperand& o = pi.src[k];
        EXPECT_TRUE(o.kind != SourceOperand::Kind::special || o.special == Special::tid_x);
        src[k] = o.kind == SourceOperand::Kind::reg   ? regs[o.reg][lane]
                 : o.kind == SourceOperand::Kind::imm ? o.value
                                                      : warp * 32 + lane;  // %tid.x
      }
      if (pi.kind == InstrKind::mov) {
        regs[pi.dest[0]][lane] = src[0];
        continue;
      }
      const exec::Result r = exec::execute(pi.instr, src, carry);
      regs[pi.dest[0]][lane] = r.value;
      if (isa::writes_carry(pi.instr)) carry = r.carry_out;
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
    programs_.reserve(cases_.size());
    std::vector<SimJob> jobs;
    for (const Case& c : cases_) {
      const ArchConfig* cfg = nullptr;
      for (const auto& a : configs_)
        if (a.name == c.config) cfg = &a;
      programs_.push_back(load_program(random_program(c.seed, 120), fmt::format("random{}", c.seed), cfg->caps));
      for (TimingStyle style : {TimingStyle::loosely_timed, TimingStyle::approximately_timed}) {
        SimJob j;
        j.config = cfg;
        j.program = &programs_.back();
        j.warps = c.warps;
        j.style = style;
        j.quantum_cycles = 64;  // small: exercises temporal decoupling syncs
        jobs.push_back(j);
      }
    }
    results_ = simulate(jobs);
    end_time_ = sc_core::sc_time_stamp();
  }
  static std::vector<ArchConfig> configs_;
  static std::vector<Case> cases_;
  static std::vector<Program> programs_;
  static std::vector<SimResult> results_;
  static sc_core::sc_time end_time_;
};
std::vector<ArchConfig> StyleEquivalence::configs_;
std::vector<Case> StyleEquivalence::cases_;
std::vector<Program> StyleEquivalence::programs_;
std::vector<SimResult> StyleEquivalence::results_;
sc_core::sc_time StyleEquivalence::end_time_;

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
    EXPECT_EQ(lt.warp_instructions, uint64_t{cases_[i].warps} * programs_[i].code.size()) << what;
  }
}

TEST_F(StyleEquivalence, SimulatedTimeEndsWithTheLastResult) {
  uint64_t last = 0;
  for (const auto& r : results_) last = std::max(last, r.cycles);
  EXPECT_GE(end_time_, sc_core::sc_time(static_cast<double>(last), sc_core::SC_NS));
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
