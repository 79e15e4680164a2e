// Straight-line programs against the timing oracle (tb/kernels/timing_oracle.h),
// the same one the kernels meet: seeded random programs (dependency patterns
// from long chains to independent streams, every unit, form overrides and
// multi-instruction forms, the carry flag, vector movs, and %clock reads
// that show when each warp issued what), on the embedded configs and on
// variants of them (scheduler, issue width, sub-partitions, lanes,
// intervals, latencies). The loosely-timed and approximately-timed models
// must give the oracle's cycle counts, warp-instructions and unit busy
// cycles exactly, and every register of every warp, the %clock reads
// included, must hold what the oracle's run left there.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "models/simulator.h"
#include "timing_oracle.h"

namespace ptxfu::models {
namespace {

constexpr size_t kLanes = 32;

// How a program's instructions pick their registers.
enum class Pattern { chain, stream, few, many };
const char* const kPatternNames[] = {"chain", "stream", "few", "many"};
constexpr unsigned kClocks = 6;  // %clock reads per program

// A seeded random straight-line program over every unit.
std::string random_program(std::mt19937& rng, Pattern pattern, unsigned length, bool sm80_forms) {
  std::vector<const char*> forms = {
      "fma.rn.f32 %f{0}, %f{1}, %f{2}, %f{3}",
      "add.f32 %f{0}, %f{1}, %f{2}",
      "add.s32 %r{0}, %r{1}, %r{2}",
      "mad.lo.s32 %r{0}, %r{1}, %r{2}, %r{3}",
      "fma.rn.f16x2 %r{0}, %r{1}, %r{2}, %r{3}",
      "ex2.approx.ftz.f32 %f{0}, %f{1}",
      "fma.rn.f64 %d{0}, %d{1}, %d{2}, %d{3}",
      "popc.b32 %r{0}, %r{1}",
      "min.f32 %f{0}, %f{1}, %f{2}",
      "div.rn.f32 %f{0}, %f{1}, %f{2}",
      "mul.wide.u32 %w{0}, %r{1}, %r{2}",
      "add.cc.u32 %r{0}, %r{1}, %r{2}",
      "addc.cc.u32 %r{0}, %r{1}, %r{2}",
      "mov.b32 %r{0}, %r{1}",
      "mov.b32 %r{0}, {{%h{1}, %h{2}}}",
      "mov.b32 {{%h{0}, %h{1}}}, %r{2}",
      "mov.b64 {{_, %r{0}}}, %w{1}",
      "mov.u32 %r{0}, %laneid",
      "fma.rn.f16 %h{0}, %h{1}, %h{2}, %h{3}",
      "sqrt.rn.f64 %d{0}, %d{1}",
  };
  if (sm80_forms) forms.push_back("fma.rn.bf16x2 %r{0}, %r{1}, %r{2}, %r{3}");
  std::string s = ".reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .f64 %d<8>;\n.reg .b64 %w<8>;\n.reg .b16 %h<8>;\n";
  s += fmt::format(".reg .b32 %c<{}>;\n.reg .b64 %c64;\n", kClocks);
  for (int i = 0; i < 8; ++i)
    s += fmt::format("mov.u32 %r{0}, %tid.x;\nmov.f32 %f{0}, 0f3f{1:02x}0000;\nmov.b16 %h{0}, 0x3c{1:02x};\n", i,
                     0x80 + i);
  std::uniform_int_distribution<size_t> pick(0, forms.size() - 1);
  std::uniform_int_distribution<int> few(0, 2), many(0, 7);
  for (unsigned i = 0; i < length; ++i) {
    int r[4];
    for (int k = 0; k < 4; ++k) {
      switch (pattern) {
        case Pattern::chain: r[k] = k == 0 ? 0 : (k == 1 ? 0 : 1 + k); break;
        case Pattern::stream: r[k] = static_cast<int>((i + 3 * static_cast<unsigned>(k)) % 8); break;
        case Pattern::few: r[k] = few(rng); break;
        case Pattern::many: r[k] = many(rng); break;
      }
    }
    if (pattern == Pattern::chain) r[1] = r[0];  // reads what it wrote last
    s += fmt::vformat(forms[pick(rng)], fmt::make_format_args(r[0], r[1], r[2], r[3])) + ";\n";
    // Each %c register once: its final value is the cycle that mov issued in.
    if (i % (length / kClocks + 1) == 0 && i / (length / kClocks + 1) < kClocks)
      s += fmt::format("mov.u32 %c{}, %clock;\n", i / (length / kClocks + 1));
  }
  s += "mov.u64 %c64, %clock64;\n";
  return s;
}

struct Case {
  std::string what;
  size_t config;  // into configs_
  size_t program;
  unsigned warps;
};

class TimingOracle : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The embedded configs, then variants that move every timing knob.
    for (const auto& e : embedded_configs()) configs_.push_back(load_config(std::string(e.name)));
    const size_t embedded = configs_.size();
    auto variant = [&](const char* base, const char* name, auto change) {
      ArchConfig c = load_config(base);
      c.name = name;
      change(c);
      configs_.push_back(c);
    };
    variant("sm_90", "sm_90/lrr", [](ArchConfig& c) { c.scheduler = SchedulerPolicy::lrr; });
    variant("sm_80", "sm_80/lrr/dual", [](ArchConfig& c) {
      c.scheduler = SchedulerPolicy::lrr;
      c.issue_width = 2;
    });
    variant("sm_75", "sm_75/quad-issue/2sp", [](ArchConfig& c) {
      c.issue_width = 4;
      c.sub_partitions = 2;
    });
    variant("sm_70", "sm_70/1sp/slow-units", [](ArchConfig& c) {
      c.sub_partitions = 1;
      c.units[static_cast<size_t>(Unit::fma)] = {Unit::fma, 8, 3, 2};    // occupancy 12 > latency 2
      c.units[static_cast<size_t>(Unit::alu)] = {Unit::alu, 32, 1, 1};   // latency 1
      c.units[static_cast<size_t>(Unit::mufu)] = {Unit::mufu, 1, 2, 9};  // 64 cycles a warp
    });
    variant("sm_100", "sm_100/3sp/gto/dual", [](ArchConfig& c) {
      c.sub_partitions = 3;
      c.issue_width = 2;
      FormOverride slow_add;
      slow_add.match = "add.*";
      slow_add.unit = Unit::mufu;
      slow_add.lanes = 2;
      slow_add.interval = 5;
      slow_add.latency = 7;
      c.forms.insert(c.forms.begin(), slow_add);
    });
    std::mt19937 rng(20240611);
    const unsigned warp_counts[] = {1, 3, 8, 17, 64};
    programs_.reserve(configs_.size() * std::size(kPatternNames));
    for (size_t ci = 0; ci < configs_.size(); ++ci) {
      const ArchConfig& c = configs_[ci];
      for (size_t pat = 0; pat < std::size(kPatternNames); ++pat) {
        const unsigned length = 40 + static_cast<unsigned>(rng() % 80);
        const bool sm80 = c.caps.sm >= 80;
        programs_.push_back(kernel::load_straight_line(random_program(rng, static_cast<Pattern>(pat), length, sm80),
                                                       fmt::format("oracle{}", programs_.size()), c.caps));
        for (unsigned k = 0; k < 2; ++k) {
          unsigned warps = warp_counts[(pat + 2 * k + ci) % std::size(warp_counts)];
          warps = std::min(warps, c.max_warps);
          cases_.push_back({fmt::format("{} {} program {} ({} instructions) warps {}", c.name, kPatternNames[pat],
                                        programs_.size() - 1, programs_.back().insts.size(), warps),
                            ci, programs_.size() - 1, warps});
        }
      }
    }
    std::vector<SimJob> jobs;
    for (const Case& k : cases_)
      for (TimingStyle style : {TimingStyle::loosely_timed, TimingStyle::approximately_timed}) {
        SimJob j;
        j.config = &configs_[k.config];
        j.kernel = &programs_[k.program];
        j.warps = k.warps;
        j.style = style;
        j.quantum_cycles = 50;
        j.all_registers = true;
        jobs.push_back(j);
      }
    results_ = simulate(jobs);
  }

  static kernel::testing::OracleRun oracle(const Case& k) {
    kernel::Launch l;
    l.block.x = k.warps * 32;
    return kernel::testing::run_oracle(configs_[k.config], programs_[k.program], l);
  }

  static void expect_oracle(const Case& k, const SimResult& r, const std::string& what) {
    const kernel::testing::OracleRun want = oracle(k);
    EXPECT_EQ(r.cycles, want.cycles) << what;
    EXPECT_EQ(r.warp_instructions, want.warp_instructions) << what;
    for (size_t u = 0; u < kNumUnits; ++u)
      EXPECT_EQ(r.units[u].busy_cycles, want.busy[u]) << what << " " << name(static_cast<Unit>(u));
    ASSERT_EQ(r.registers.size(), want.warp_registers.size()) << what;
    const size_t regs = programs_[k.program].entry().num_regs;
    for (size_t w = 0; w < r.registers.size(); ++w)
      for (size_t reg = 0; reg < regs; ++reg)
        for (size_t lane = 0; lane < kLanes; ++lane)
          if (r.registers[w][reg][lane] != want.warp_registers[w][reg * kLanes + lane]) {
            ADD_FAILURE() << what << ": warp " << w << " " << programs_[k.program].entry().reg_names[reg]
                          << " lane " << lane;
            return;
          }
  }

  static std::vector<ArchConfig> configs_;
  static std::vector<kernel::Kernel> programs_;
  static std::vector<Case> cases_;
  static std::vector<SimResult> results_;
};
std::vector<ArchConfig> TimingOracle::configs_;
std::vector<kernel::Kernel> TimingOracle::programs_;
std::vector<Case> TimingOracle::cases_;
std::vector<SimResult> TimingOracle::results_;

TEST_F(TimingOracle, LooselyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) expect_oracle(cases_[i], results_[2 * i], "LT " + cases_[i].what);
}

TEST_F(TimingOracle, ApproximatelyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) expect_oracle(cases_[i], results_[2 * i + 1], "AT " + cases_[i].what);
}

// The cases are not vacuous: the programs stall on busy pipes and on
// dependencies, and there are as many cases as the loops make: 13 configs
// (8 embedded, 5 variants) x 4 patterns x 2 warp counts.
TEST_F(TimingOracle, CasesExerciseEveryRule) {
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls{};
  for (size_t i = 0; i < cases_.size(); ++i)
    for (size_t s = 0; s < stalls.size(); ++s) stalls[s] += results_[2 * i].stalls[s];
  for (WarpStall s : {WarpStall::pipe_busy, WarpStall::dependency, WarpStall::idle})
    EXPECT_GT(stalls[static_cast<size_t>(s)], 0u) << kWarpStallNames[static_cast<size_t>(s)];
  EXPECT_EQ(configs_.size(), embedded_configs().size() + 5);
  EXPECT_EQ(cases_.size(), configs_.size() * std::size(kPatternNames) * 2);
}

}  // namespace
}  // namespace ptxfu::models
