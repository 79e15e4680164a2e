// An independent timing oracle for straight-line programs: a reference
// scheduler written from the model's documented timing rules (README,
// Configs and `ptxfu sim`), sharing no code with the model: it reads each
// config's numbers from its YAML text with yaml-cpp and decodes each
// program's operands from its PTX text itself; of the model it uses only the
// embedded configs' names, load_config_text, load_straight_line and
// simulate to run it, and the results. It steps cycle by cycle
// where the model jumps from event to event. Over seeded random straight-line
// programs (dependency patterns from long chains to independent streams, every
// unit, form overrides and multi-instruction forms, the carry flag, vector
// movs, and %clock reads that show when each warp issued what) on the 8
// embedded configs and 5 variants of them (scheduler, issue width,
// sub-partitions, lanes, intervals, latencies, the half-precision pipe and an
// override onto another unit):
// 13 configs, 4 programs each (52), each at 2 warp counts (104 cases), the
// loosely-timed and the approximately-timed models must give its cycle counts,
// stall cycles and unit busy cycles exactly, and every warp's %clock reads must
// be the cycles the oracle issued those movs in.
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
//   issue (interval 1 when not given); its timing is its class's unit (the
//   class of the PTX ISA table; `multi`: multi_instruction, `fp16`:
//   half_precision), then the first
//   form override whose glob matches its spelling (and whose class, if
//   given, is its class): `unit` takes that unit's timing, `sequence` takes
//   the unit for interval * instructions and adds up the path's units'
//   latencies, then lanes, interval and latency replace; its latency class
//   is its unit's name, `multi` or `fp16` for a form of that class, or the
//   override's latency_class; a mov runs on the ALU;
// - gto: the warp that issued last first, then the others, oldest (lowest id)
//   first; lrr: the warps after the last one that issued, in id order,
//   wrapping; before any issue, warp order from the oldest;
// - a program runs as one CTA of a kernel: after its last statement each warp
//   issues an exit on the branch unit (nothing to wait for but the unit);
// - the run takes until the last result is there; a sub-partition cycle
//   without an issue is a stall: pipe_busy if some warp could issue but for
//   its busy unit, else dependency if some warp has instructions left, else
//   idle (which also counts every cycle after its last issue).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "config_yaml.h"
#include "models/simulator.h"

namespace ptxfu::models {
namespace {

using testing_support::OConfig;
using testing_support::OTiming;
using testing_support::read_config;
using testing_support::timing_of;

// ---- The program, as the oracle decodes it from the PTX text

// The class of each instruction the programs use, as the PTX ISA table of
// README (Instructions) gives it; a mov is "mov" (the ALU).
const std::map<std::string, std::string> kClassOf = {
    {"fma.rn.f32", "fma"},    {"add.f32", "fma"},        {"add.s32", "alu"},     {"mad.lo.s32", "fma"},
    {"fma.rn.f16x2", "fp16"}, {"fma.rn.bf16x2", "fp16"}, {"fma.rn.f16", "fp16"}, {"ex2.approx.ftz.f32", "mufu"},
    {"fma.rn.f64", "fp64"},   {"popc.b32", "mufu"},      {"min.f32", "alu"},     {"div.rn.f32", "multi"},
    {"sqrt.rn.f64", "multi"}, {"mul.wide.u32", "fma"},   {"add.cc.u32", "alu"},  {"addc.cc.u32", "alu"},
};

struct OInstr {
  std::string spelling, cls;
  std::vector<std::string> dests, srcs;  // register names; the carry flag is "CC"
  bool reads_clock = false;
};

// "a, {b, c}, d" -> "a", "b", "c", "d", each operand with the index of the
// top-level operand it belongs to.
std::vector<std::pair<std::string, unsigned>> operands(const std::string& text) {
  std::vector<std::pair<std::string, unsigned>> out;
  std::string cur;
  unsigned top = 0;
  auto flush = [&] {
    cur.erase(0, cur.find_first_not_of(" {"));
    cur.erase(cur.find_last_not_of(" }") + 1);
    if (!cur.empty()) out.push_back({cur, top});
    cur.clear();
  };
  int depth = 0;
  for (char ch : text) {
    if (ch == '{') ++depth;
    if (ch == '}') --depth;
    if (ch == ',') {
      flush();
      if (depth == 0) ++top;
      continue;
    }
    cur += ch;
  }
  flush();
  return out;
}

std::vector<OInstr> decode_program(const std::string& text) {
  std::vector<OInstr> program;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '.') continue;  // .reg declarations
    line.erase(line.find(';'));
    OInstr oi;
    oi.spelling = line.substr(0, line.find(' '));
    oi.cls = oi.spelling.rfind("mov.", 0) == 0 ? "mov" : kClassOf.at(oi.spelling);
    for (const auto& [op, top] : operands(line.substr(line.find(' ') + 1))) {
      if (op == "%clock" || op == "%clock64") oi.reads_clock = true;
      const bool reg =
          op[0] == '%' && op.find('.') == std::string::npos && op != "%clock" && op != "%clock64" && op != "%laneid";
      if (reg) (top == 0 ? oi.dests : oi.srcs).push_back(op);
    }
    if (oi.spelling.rfind("addc", 0) == 0) oi.srcs.push_back("CC");
    if (oi.spelling.find(".cc") != std::string::npos) oi.dests.push_back("CC");
    program.push_back(oi);
  }
  OInstr exit;  // the end of the program: each warp's exit
  exit.spelling = "exit";
  exit.cls = "branch";
  program.push_back(exit);
  return program;
}

// ---- The reference scheduler

struct Figures {
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls{};
  std::map<std::string, uint64_t> busy;          // per unit name
  std::vector<std::vector<uint64_t>> issued_at;  // [warp][pc]: the cycle each instruction issued in
};

Figures oracle(const YAML::Node& config_yaml, const std::string& program_text, unsigned warps) {
  const OConfig c = read_config(config_yaml);
  const std::vector<OInstr> p = decode_program(program_text);
  std::vector<OTiming> timing;
  for (const OInstr& oi : p)
    timing.push_back(oi.cls == "branch" ? c.units.at("branch") : timing_of(c, oi.spelling, oi.cls));

  struct Value {
    uint64_t ready = 0, written = 0;  // when it is there, when its writer issued
    std::string writer_class;         // empty: no writer yet
  };
  struct WarpState {
    unsigned id = 0;
    size_t pc = 0;
    std::map<std::string, Value> values;  // per register name
  };
  struct Dispatcher {
    std::vector<WarpState> warps;  // in id order
    std::map<std::string, uint64_t> unit_free_at;
    int last = -1;  // the warp that issued last, -1 before any
    uint64_t issue_end = 0;
  };
  const size_t length = p.size();
  std::vector<Dispatcher> ds(c.sub_partitions);
  for (unsigned w = 0; w < warps; ++w) ds[w % c.sub_partitions].warps.push_back({w, 0, {}});

  Figures f;
  f.issued_at.assign(warps, std::vector<uint64_t>(length));
  auto finished = [&](const WarpState& w) { return w.pc >= length; };
  // Whether the warp's next instruction has its values at t (its unit aside).
  auto values_ready = [&](WarpState& w, uint64_t t) {
    const OInstr& oi = p[w.pc];
    for (const std::string& r : oi.srcs) {
      const Value& v = w.values[r];
      if (v.ready > t || (!v.writer_class.empty() && v.written + c.pair_latency(v.writer_class, timing[w.pc].dep) > t))
        return false;
    }
    for (const std::string& r : oi.dests)
      if (w.values[r].ready > t) return false;
    return true;
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
        if (!c.lrr) {
          if (d.last >= 0) order.push_back(static_cast<size_t>(d.last));
          for (size_t w = 0; w < n; ++w)
            if (static_cast<int>(w) != d.last) order.push_back(w);
        } else {
          for (size_t k = 1; k <= n; ++k) order.push_back((static_cast<size_t>(d.last + static_cast<int>(n)) + k) % n);
        }
        int pick = -1;
        for (size_t w : order) {
          WarpState& ws = d.warps[w];
          if (finished(ws) || !values_ready(ws, t)) continue;
          if (d.unit_free_at[timing[ws.pc].unit] > t) continue;
          pick = static_cast<int>(w);
          break;
        }
        if (pick < 0) break;
        WarpState& ws = d.warps[static_cast<size_t>(pick)];
        const OTiming& tm = timing[ws.pc];
        const unsigned occupancy = testing_support::occupancy(tm);
        d.unit_free_at[tm.unit] = t + occupancy;
        f.busy[tm.unit] += occupancy;
        for (const std::string& r : p[ws.pc].dests) ws.values[r] = {t + tm.latency, t, tm.dep};
        f.cycles = std::max(f.cycles, t + tm.latency);
        ++f.warp_instructions;
        f.issued_at[ws.id][ws.pc] = t;
        ++ws.pc;
        d.last = pick;
        d.issue_end = t + 1;
      }
      if (issued) continue;
      bool unit_only = false, waiting = false;
      for (WarpState& ws : d.warps) {
        if (finished(ws)) continue;
        if (values_ready(ws, t))
          unit_only = true;
        else
          waiting = true;
      }
      ++f.stalls[static_cast<size_t>(unit_only ? WarpStall::pipe_busy
                                     : waiting ? WarpStall::dependency
                                               : WarpStall::idle)];
    }
    if (all_done) break;
  }
  for (const Dispatcher& d : ds) f.stalls[static_cast<size_t>(WarpStall::idle)] += f.cycles - d.issue_end;
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
void expect_clocks(const std::string& text, const kernel::Kernel& p, const SimResult& r, const Figures& want,
                   const std::string& what) {
  const std::vector<OInstr> decoded = decode_program(text);
  const std::vector<std::string>& names = p.entry().reg_names;
  for (size_t pc = 0; pc < decoded.size(); ++pc) {
    if (!decoded[pc].reads_clock) continue;
    const std::string& dest = decoded[pc].dests.at(0);
    const auto reg = std::find(names.begin(), names.end(), dest);
    ASSERT_NE(reg, names.end()) << what << ": no register " << dest;
    const auto index = static_cast<size_t>(reg - names.begin());
    for (size_t w = 0; w < r.registers.size(); ++w)
      EXPECT_EQ(r.registers[w][index][0], want.issued_at[w][pc]) << what << ": warp " << w << " pc " << pc;
  }
}

struct Case {
  std::string what;
  size_t config;  // into configs_ and yamls_
  size_t program;
  unsigned warps;
};

// A config's YAML as the oracle reads it; the model gets the same text.
YAML::Node config_yaml(const std::string& name) {
  return YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/" + name + ".yaml");
}

class TimingOracle : public testing::Test {
 protected:
  static void add_config(const std::string& name, YAML::Node yaml) {
    yaml["name"] = name;
    YAML::Emitter e;
    e << yaml;
    yamls_.push_back(YAML::Load(e.c_str()));
    configs_.push_back(load_config_text(e.c_str(), name));
  }

  static void SetUpTestSuite() {
    // The embedded configs, then variants that move every timing knob.
    for (const auto& e : embedded_configs()) add_config(std::string(e.name), config_yaml(std::string(e.name)));
    const size_t embedded = configs_.size();
    YAML::Node v = config_yaml("sm_90");
    v["scheduler"] = "lrr";
    add_config("sm_90/lrr", v);
    v = config_yaml("sm_80");
    v["scheduler"] = "lrr";
    v["issue_width"] = 2;
    add_config("sm_80/lrr/dual", v);
    v = config_yaml("sm_75");
    v["issue_width"] = 4;
    v["sub_partitions"] = 2;
    add_config("sm_75/quad-issue/2sp", v);
    v = config_yaml("sm_70");
    v["sub_partitions"] = 1;
    v["units"]["fma"] = YAML::Load("{lanes: 8, interval: 3, latency: 2}");               // occupancy 12 > latency 2
    v["units"]["alu"] = YAML::Load("{lanes: 32, interval: 1, latency: 1}");              // latency 1
    v["units"]["mufu"] = YAML::Load("{lanes: 1, interval: 2, latency: 9}");              // 64 cycles a warp
    v["half_precision"] = YAML::Load("{unit: alu, lanes: 8, interval: 2, latency: 3}");  // HFMA2 on the ALU
    add_config("sm_70/1sp/slow-units", v);
    v = config_yaml("sm_100");
    v["sub_partitions"] = 3;
    v["issue_width"] = 2;
    YAML::Node forms(YAML::NodeType::Sequence);
    forms.push_back(YAML::Load("{match: \"add.*\", unit: mufu, lanes: 2, interval: 5, latency: 7}"));
    for (const auto& f : v["forms"]) forms.push_back(f);
    v["forms"] = forms;
    add_config("sm_100/3sp/gto/dual", v);
    ASSERT_EQ(embedded, 8u);
    ASSERT_EQ(configs_.size(), 13u);

    std::mt19937 rng(20240611);
    const unsigned warp_counts[] = {1, 3, 8, 17, 64};
    for (size_t ci = 0; ci < configs_.size(); ++ci) {
      const ArchConfig& c = configs_[ci];
      for (size_t pat = 0; pat < std::size(kPatternNames); ++pat) {
        const unsigned length = 40 + static_cast<unsigned>(rng() % 80);
        const bool sm80 = c.caps.sm >= 80;
        texts_.push_back(random_program(rng, static_cast<Pattern>(pat), length, sm80));
        programs_.push_back(
            kernel::load_straight_line(texts_.back(), fmt::format("oracle{}", programs_.size()), c.caps));
        for (unsigned k = 0; k < 2; ++k) {
          unsigned warps = warp_counts[(pat + 2 * k + ci) % std::size(warp_counts)];
          warps = std::min(warps, yamls_[ci]["max_warps"].as<unsigned>());
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

  static void expect_oracle(const Case& k, const SimResult& r, const std::string& what) {
    const Figures want = oracle(yamls_[k.config], texts_[k.program], k.warps);
    EXPECT_EQ(r.cycles, want.cycles) << what;
    expect_clocks(texts_[k.program], programs_[k.program], r, want, what);
    EXPECT_EQ(r.warp_instructions, want.warp_instructions) << what;
    EXPECT_EQ(r.stalls, want.stalls) << what;
    for (size_t u = 0; u < kNumUnits; ++u) {
      const auto it = want.busy.find(std::string(name(static_cast<Unit>(u))));
      EXPECT_EQ(r.units[u].busy_cycles, it == want.busy.end() ? 0 : it->second)
          << what << " " << name(static_cast<Unit>(u));
    }
  }

  static std::vector<YAML::Node> yamls_;
  static std::vector<ArchConfig> configs_;
  static std::vector<std::string> texts_;
  static std::vector<kernel::Kernel> programs_;
  static std::vector<Case> cases_;
  static std::vector<SimResult> results_;
};
std::vector<YAML::Node> TimingOracle::yamls_;
std::vector<ArchConfig> TimingOracle::configs_;
std::vector<std::string> TimingOracle::texts_;
std::vector<kernel::Kernel> TimingOracle::programs_;
std::vector<Case> TimingOracle::cases_;
std::vector<SimResult> TimingOracle::results_;

TEST_F(TimingOracle, LooselyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) expect_oracle(cases_[i], results_[2 * i], "LT " + cases_[i].what);
}

TEST_F(TimingOracle, ApproximatelyTimedModelMatchesTheOracle) {
  for (size_t i = 0; i < cases_.size(); ++i) expect_oracle(cases_[i], results_[2 * i + 1], "AT " + cases_[i].what);
}

// The oracle is not vacuous: the programs stall for every reason, and the
// variants change the cycle counts. 13 configs x 4 programs x 2 warp counts.
TEST_F(TimingOracle, CasesExerciseEveryRule) {
  std::array<uint64_t, static_cast<size_t>(WarpStall::kCount)> stalls{};
  for (size_t i = 0; i < cases_.size(); ++i)
    for (size_t s = 0; s < stalls.size(); ++s) stalls[s] += results_[2 * i].stalls[s];
  for (WarpStall s : {WarpStall::pipe_busy, WarpStall::dependency, WarpStall::idle})
    EXPECT_GT(stalls[static_cast<size_t>(s)], 0u) << kWarpStallNames[static_cast<size_t>(s)];
  EXPECT_EQ(programs_.size(), 52u);
  EXPECT_EQ(cases_.size(), 104u);
}

}  // namespace
}  // namespace ptxfu::models
