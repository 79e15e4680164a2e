// An independent timing oracle: a reference scheduler written from the
// model's documented timing rules (README, Configs and `ptxfu sim`), sharing
// no code with models/sub_partition.cc. It steps cycle by cycle where the
// model jumps from event to event, and it reads only the config and the
// loaded program. Over seeded random straight-line programs (dependency
// patterns from long chains to independent streams, every unit, form
// overrides and multi-instruction forms, the carry flag, vector movs, and
// %clock reads that show when each warp issued what) on the
// embedded configs and on variants of them (scheduler, issue width,
// sub-partitions, lanes, intervals, latencies), the loosely-timed and the
// approximately-timed models must give its cycle counts, stall cycles and
// unit busy cycles exactly, and every warp's %clock reads must be the cycles
// the oracle issued those movs in.
//
// The rules, as documented:
// - warp w runs on sub-partition w mod sub_partitions; each sub-partition
//   issues at most issue_width warp-instructions per cycle, one after the
//   other, each from the first warp in its order whose next instruction can
//   issue;
// - an instruction can issue in cycle t when its unit is free in t and every
//   register it reads or writes (and the carry flag, if it reads or writes
//   it) holds its value by t: a result is there `latency` cycles after its
//   instruction issued; an instruction that reads it may issue no earlier
//   than the config's `dependencies:` entry for (the writer's class, the
//   reader's class) after the writer issued, when one names the pair;
// - an instruction occupies its unit for 32/lanes * interval cycles from its
//   issue; its unit and timing are the config's for its form (class unit,
//   then the first matching form override); a mov runs on the ALU;
// - gto: the warp that issued last first, then the others, oldest (lowest id)
//   first; lrr: the warps after the last one that issued, in id order,
//   wrapping; before any issue, warp order from the oldest;
// - the run takes until the last result is there; a sub-partition cycle
//   without an issue is a stall: pipe_busy if some warp could issue but for
//   its busy unit, else dependency if some warp has instructions left, else
//   no_ready_warp (which also counts every cycle after its last issue).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "models/simulator.h"

namespace ptxfu::models {
namespace {

struct Figures {
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  std::array<uint64_t, static_cast<size_t>(Stall::kCount)> stalls{};
  std::array<uint64_t, kNumUnits> busy{};
  std::vector<std::vector<uint64_t>> issued_at;  // [warp][pc]: the cycle each instruction issued in
};

Figures oracle(const ArchConfig& c, const Program& p, unsigned warps) {
  const size_t carry = p.registers.size();
  std::vector<Timing> timing;
  for (const ProgramInstr& pi : p.code)
    timing.push_back(pi.kind == InstrKind::mov ? c.units[static_cast<size_t>(Unit::alu)] : c.timing_for(pi.instr));

  struct WarpState {
    unsigned id = 0;
    size_t pc = 0;
    std::vector<uint64_t> value_at;    // per register, then the carry flag
    std::vector<uint64_t> written_at;  // ... when its writer issued
    std::vector<int> writer_class;     // ... its writer's DepClass, -1: none
  };
  // The dependencies: entry for a pair, 0 when none names it (read from the list, not the table).
  auto pair_latency = [&](int producer, DepClass consumer) {
    for (const Dependency& d : c.dependencies)
      if (static_cast<int>(d.producer) == producer && d.consumer == consumer) return d.latency;
    return 0u;
  };
  struct Dispatcher {
    std::vector<WarpState> warps;  // in id order
    std::array<uint64_t, kNumUnits> unit_free_at{};
    int last = -1;  // the warp that issued last, -1 before any
    uint64_t issue_end = 0;
  };
  const size_t length = p.code.size();
  std::vector<Dispatcher> ds(c.sub_partitions);
  for (unsigned w = 0; w < warps; ++w)
    ds[w % c.sub_partitions].warps.push_back({w, 0, std::vector<uint64_t>(carry + 1, 0),
                                              std::vector<uint64_t>(carry + 1, 0), std::vector<int>(carry + 1, -1)});

  Figures f;
  f.issued_at.assign(warps, std::vector<uint64_t>(length));
  auto finished = [&](const WarpState& w) { return w.pc >= length; };
  // Whether the warp's next instruction has its values at t, and whether its unit is free.
  auto values_ready = [&](const WarpState& w, uint64_t t) {
    const ProgramInstr& pi = p.code[w.pc];
    auto readable = [&](size_t r) {
      return w.value_at[r] <= t &&
             (w.writer_class[r] < 0 || w.written_at[r] + pair_latency(w.writer_class[r], timing[w.pc].dep) <= t);
    };
    for (unsigned k = 0; k < pi.num_src; ++k)
      if (pi.src[k].kind == SourceOperand::Kind::reg && !readable(pi.src[k].reg)) return false;
    if (pi.reads_carry && !readable(carry)) return false;
    for (unsigned k = 0; k < pi.num_dest; ++k)
      if (pi.dest[k] != kSink && w.value_at[pi.dest[k]] > t) return false;
    return !((pi.reads_carry || pi.writes_carry) && w.value_at[carry] > t);
  };
  for (uint64_t t = 0;; ++t) {
    bool all_done = true;
    for (Dispatcher& d : ds) {
      const size_t n = d.warps.size();
      if (std::all_of(d.warps.begin(), d.warps.end(), finished)) continue;
      all_done = false;
      unsigned issued = 0;
      for (; issued < c.issue_width; ++issued) {
        std::vector<size_t> order;
        if (c.scheduler == SchedulerPolicy::gto) {
          if (d.last >= 0) order.push_back(static_cast<size_t>(d.last));
          for (size_t w = 0; w < n; ++w)
            if (static_cast<int>(w) != d.last) order.push_back(w);
        } else {
          for (size_t k = 1; k <= n; ++k) order.push_back((static_cast<size_t>(d.last + static_cast<int>(n)) + k) % n);
        }
        int pick = -1;
        for (size_t w : order) {
          const WarpState& ws = d.warps[w];
          if (finished(ws) || !values_ready(ws, t)) continue;
          if (d.unit_free_at[static_cast<size_t>(timing[ws.pc].unit)] > t) continue;
          pick = static_cast<int>(w);
          break;
        }
        if (pick < 0) break;
        WarpState& ws = d.warps[static_cast<size_t>(pick)];
        const ProgramInstr& pi = p.code[ws.pc];
        const Timing& tm = timing[ws.pc];
        const unsigned occupancy = 32 / tm.lanes * tm.interval;
        d.unit_free_at[static_cast<size_t>(tm.unit)] = t + occupancy;
        f.busy[static_cast<size_t>(tm.unit)] += occupancy;
        auto write = [&](size_t r) {
          ws.value_at[r] = t + tm.latency;
          ws.written_at[r] = t;
          ws.writer_class[r] = static_cast<int>(tm.dep);
        };
        for (unsigned k = 0; k < pi.num_dest; ++k)
          if (pi.dest[k] != kSink) write(pi.dest[k]);
        if (pi.writes_carry) write(carry);
        f.cycles = std::max(f.cycles, t + tm.latency);
        ++f.warp_instructions;
        f.issued_at[ws.id][ws.pc] = t;
        ++ws.pc;
        d.last = pick;
        d.issue_end = t + 1;
      }
      if (issued) continue;
      bool unit_only = false, waiting = false;
      for (const WarpState& ws : d.warps) {
        if (finished(ws)) continue;
        if (values_ready(ws, t))
          unit_only = true;
        else
          waiting = true;
      }
      ++f.stalls[static_cast<size_t>(unit_only ? Stall::pipe_busy
                                     : waiting ? Stall::dependency
                                               : Stall::no_ready_warp)];
    }
    if (all_done) break;
  }
  for (const Dispatcher& d : ds) f.stalls[static_cast<size_t>(Stall::no_ready_warp)] += f.cycles - d.issue_end;
  return f;
}

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

// The issue cycles the %clock movs of a program read, per warp, as the model
// left them in the registers, and as the oracle says.
void expect_clocks(const Program& p, const SimResult& r, const Figures& want, const std::string& what) {
  for (size_t pc = 0; pc < p.code.size(); ++pc) {
    const ProgramInstr& pi = p.code[pc];
    if (pi.kind != InstrKind::mov || pi.src[0].kind != SourceOperand::Kind::special) continue;
    if (pi.src[0].special != Special::clock && pi.src[0].special != Special::clock64) continue;
    for (size_t w = 0; w < r.registers.size(); ++w)
      EXPECT_EQ(r.registers[w][pi.dest[0]][0], want.issued_at[w][pc]) << what << ": warp " << w << " pc " << pc;
  }
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
    for (size_t ci = 0; ci < configs_.size(); ++ci) {
      const ArchConfig& c = configs_[ci];
      for (size_t pat = 0; pat < std::size(kPatternNames); ++pat) {
        const unsigned length = 40 + static_cast<unsigned>(rng() % 80);
        const bool sm80 = c.caps.sm >= 80;
        programs_.push_back(load_program(random_program(rng, static_cast<Pattern>(pat), length, sm80),
                                         fmt::format("oracle{}", programs_.size()), c.caps));
        for (unsigned k = 0; k < 2; ++k) {
          unsigned warps = warp_counts[(pat + 2 * k + ci) % std::size(warp_counts)];
          warps = std::min(warps, c.max_warps);
          cases_.push_back({fmt::format("{} {} program {} ({} instructions) warps {}", c.name, kPatternNames[pat],
                                        programs_.size() - 1, programs_.back().code.size(), warps),
                            ci, programs_.size() - 1, warps});
        }
      }
    }
    ASSERT_GT(configs_.size(), embedded);
    std::vector<SimJob> jobs;
    for (const Case& k : cases_)
      for (TimingStyle style : {TimingStyle::loosely_timed, TimingStyle::approximately_timed}) {
        SimJob j;
        j.config = &configs_[k.config];
        j.program = &programs_[k.program];
        j.warps = k.warps;
        j.style = style;
        j.quantum_cycles = 50;
        j.all_registers = true;
        jobs.push_back(j);
      }
    results_ = simulate(jobs);
  }

  static void expect_oracle(size_t p, const SimResult& r, const Figures& want, const std::string& what) {
    EXPECT_EQ(r.cycles, want.cycles) << what;
    expect_clocks(programs_[p], r, want, what);
    EXPECT_EQ(r.warp_instructions, want.warp_instructions) << what;
    EXPECT_EQ(r.stalls, want.stalls) << what;
    for (size_t u = 0; u < kNumUnits; ++u)
      EXPECT_EQ(r.units[u].busy_cycles, want.busy[u]) << what << " " << name(static_cast<Unit>(u));
  }

  static std::vector<ArchConfig> configs_;
  static std::vector<Program> programs_;
  static std::vector<Case> cases_;
  static std::vector<SimResult> results_;
};
std::vector<ArchConfig> TimingOracle::configs_;
std::vector<Program> TimingOracle::programs_;
std::vector<Case> TimingOracle::cases_;
std::vector<SimResult> TimingOracle::results_;

TEST_F(TimingOracle, LooselyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) {
    const Case& k = cases_[i];
    expect_oracle(k.program, results_[2 * i], oracle(configs_[k.config], programs_[k.program], k.warps),
                  "LT " + k.what);
  }
}

TEST_F(TimingOracle, ApproximatelyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) {
    const Case& k = cases_[i];
    expect_oracle(k.program, results_[2 * i + 1], oracle(configs_[k.config], programs_[k.program], k.warps),
                  "AT " + k.what);
  }
}

// The oracle is not vacuous: the programs stall for every reason, and the
// variants change the cycle counts.
TEST_F(TimingOracle, CasesExerciseEveryRule) {
  std::array<uint64_t, static_cast<size_t>(Stall::kCount)> stalls{};
  for (size_t i = 0; i < cases_.size(); ++i)
    for (size_t s = 0; s < stalls.size(); ++s) stalls[s] += results_[2 * i].stalls[s];
  for (size_t s = 0; s < stalls.size(); ++s) EXPECT_GT(stalls[s], 0u) << kStallNames[s];
  EXPECT_GE(cases_.size(), 90u);
}

}  // namespace
}  // namespace ptxfu::models
