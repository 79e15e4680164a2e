// An independent timing oracle for kernels: a plain cycle-by-cycle
// scheduler, written apart from models/kernel_sm.cc, that steps the
// functional executor and applies the timing rules the README states
// (residency, slots and sub-partitions, GTO/LRR, the scoreboard with the
// dependency table, unit occupancy, memory latency by state space with the
// hit share, coalescing and bank conflicts, branches and barriers that hold
// a warp). It reads the config's numbers from its YAML (tb/config_yaml.h, not
// the model's loader), computes residency itself for a given register count,
// and decodes each instruction (unit, form, registers, access size) from the
// kernel's text itself; the functional executor (src/kernel's step()) only
// runs the threads: which instruction a warp runs next (by its source line),
// which lanes execute, and the addresses they access.
// Seeded random kernels (18: 6 seeds on 3 configs) run on it and on the SM
// model; the cycle counts must be equal.
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "config_yaml.h"
#include "kernel_test_util.h"
#include "model_run.h"
#include "models/config.h"

namespace ptxfu::kernel::testing {
namespace {

using testing_support::OConfig;
using testing_support::OMemory;
using testing_support::OTiming;

constexpr uint64_t kNever = ~uint64_t{0};
// Registers per thread, given to the model and to the oracle's residency.
constexpr unsigned kRegistersPerThread = 40;

// One instruction as the oracle decodes it from the kernel's text.
struct KInstr {
  std::string unit;                        // "arith": the form's timing; else the unit's name
  std::string spelling, cls;               // arith: the form and its class
  std::vector<std::string> reads, writes;  // register names (no calls: one frame); the carry flag is "CC"
  bool access = false, atomic = false, control = false;
  // ld.param and ld.const read the constant bank (the README's timing rules):
  // no unit waits or is occupied; the result after memory.param / memory.const.
  bool constant_bank = false;
  unsigned access_bytes = 0;
};

// The class of each form the random kernels use, as the PTX ISA table of
// README (Instructions) gives it.
const std::map<std::string, std::string> kClassOf = {
    {"and.b32", "alu"},          {"add.s32", "alu"},         {"sub.s32", "alu"},     {"shl.b32", "alu"},
    {"add.s64", "alu"},          {"setp.eq.u32", "alu"},     {"setp.ne.u32", "alu"}, {"mul.wide.u32", "fma"},
    {"mul.lo.s32", "fma"},       {"fma.rn.f32", "fma"},      {"add.f32", "fma"},     {"cvt.rn.f32.u32", "conv"},
    {"cvt.rzi.s32.f32", "conv"}, {"ex2.approx.f32", "mufu"},
};

bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The registers among an instruction's operands, in order, each with whether
// it is the first operand ("[%rd3+16]" and "{%a, %b}" give their registers).
std::vector<std::pair<std::string, bool>> registers_of(const std::string& operands) {
  std::vector<std::pair<std::string, bool>> out;
  std::string name;
  bool first = true;
  auto flush = [&] {
    if (name.size() > 1 && name.find('.') == std::string::npos) out.push_back({name, first});  // %tid.x: special
    name.clear();
  };
  for (char ch : operands) {
    if (ch == '%' || (!name.empty() && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'))) {
      name += ch;
      continue;
    }
    flush();
    if (ch == ',') first = false;
  }
  flush();
  return out;
}

KInstr decode_line(std::string line) {
  KInstr k;
  std::string guard;
  if (line[0] == '@') {
    guard = line.substr(line[1] == '!' ? 2 : 1, line.find(' ') - (line[1] == '!' ? 2 : 1));
    line = line.substr(line.find(' ') + 1);
  }
  const std::string op = line.substr(0, line.find_first_of(" ;"));
  const std::string rest = line.size() > op.size() ? line.substr(op.size()) : "";
  k.access = starts(op, "ld.") || starts(op, "st.") || starts(op, "atom.") || starts(op, "red.");
  k.atomic = starts(op, "atom.") || starts(op, "red.");
  k.constant_bank = starts(op, "ld.param.") || starts(op, "ld.const.");
  k.control =
      op == "bra" || starts(op, "bra.") || starts(op, "call") || op == "ret" || op == "exit" || starts(op, "bar");
  const bool writes_first = !starts(op, "st.") && !starts(op, "red.") && !k.control;
  for (const auto& [reg, first] : registers_of(rest)) (first && writes_first ? k.writes : k.reads).push_back(reg);
  if (!guard.empty()) k.reads.push_back(guard);
  if (starts(op, "addc") || starts(op, "subc") || starts(op, "madc")) k.reads.push_back("CC");
  if (op.find(".cc") != std::string::npos) k.writes.push_back("CC");
  if (k.access) {
    const std::string type = op.substr(op.rfind('.') + 2);  // u32 -> 32
    k.access_bytes = static_cast<unsigned>(std::stoul(type)) / 8;
    k.unit = "lsu";
  } else if (k.control) {
    k.unit = starts(op, "bar") ? "warp" : "branch";
  } else if (starts(op, "mov.") || starts(op, "cvta")) {
    k.unit = "alu";
  } else {
    k.unit = "arith";
    k.spelling = op;
    k.cls = kClassOf.at(op);
  }
  return k;
}

// Per source line, the instruction on it; the closing brace is the
// function's end, a branch.
std::map<unsigned, KInstr> decode_kernel(const std::string& text) {
  std::map<unsigned, KInstr> out;
  std::istringstream in(text);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line == "}") {
      out[n].unit = "branch";
      out[n].control = true;
    }
    if (line.empty() || line[0] == '.' || line[0] == '{' || line[0] == '}' || line.back() == ':') continue;
    out[n] = decode_line(line);
  }
  return out;
}

struct OracleWarp {
  Warp* warp = nullptr;
  size_t cta = 0;
  unsigned part = 0;
  uint64_t age = 0;
  std::map<std::string, uint64_t> ready, written;  // by register name
  std::map<std::string, std::string> writer_class;
  uint64_t resume = 0;
};

struct OracleCta {
  std::unique_ptr<Cta> cta;
  std::vector<size_t> slots;
  uint64_t last_done = 0;
};

// Distinct lines, or the worst shared-memory bank conflict.
unsigned passes(const StepResult& r, const KInstr& in, const OMemory& m) {
  const unsigned bytes = std::max(1u, in.access_bytes);
  std::vector<uint64_t> units;
  const bool shared = r.space == Space::shared;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(r.executed >> lane & 1)) continue;
    const uint64_t a = r.addresses[lane], size = shared ? 4 : m.line_bytes;
    for (uint64_t u = a / size; u <= (a + bytes - 1) / size; ++u) units.push_back(u);
  }
  if (units.empty()) return 1;
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  if (!shared) return static_cast<unsigned>(units.size());
  std::map<uint64_t, unsigned> per_bank;
  unsigned worst = 1;
  for (uint64_t w : units) worst = std::max(worst, ++per_bank[w % m.shared_banks]);
  const uint64_t moved = uint64_t{static_cast<unsigned>(__builtin_popcount(r.executed))} * bytes;
  return std::max<unsigned>(worst, static_cast<unsigned>((moved + 4 * m.shared_banks - 1) / (4 * m.shared_banks)));
}

// CTAs resident at once (README, Kernels): the tightest of max_ctas, warps,
// shared memory (static + dynamic + reserved per CTA) and registers (a
// warp's rounded up to the granularity), and the grid.
unsigned resident_ctas(const OConfig& c, const Kernel& k, const Launch& l) {
  const uint64_t warps = (l.block.count() + 31) / 32;
  const uint64_t shared = uint64_t{k.dynamic_shared_offset} + l.shared_bytes + c.sm.reserved_shared_per_cta;
  const uint64_t g = c.sm.register_granularity;
  const uint64_t registers = (uint64_t{kRegistersPerThread} * 32 + g - 1) / g * g * warps;
  return static_cast<unsigned>(
      std::min({uint64_t{c.sm.max_ctas}, c.max_warps / warps, shared ? c.sm.shared_bytes / shared : c.sm.max_ctas,
                c.sm.registers / registers, l.grid.count()}));
}

OTiming timing(const OConfig& c, const KInstr& in) {
  return in.unit == "arith" ? testing_support::timing_of(c, in.spelling, in.cls) : c.units.at(in.unit);
}

uint64_t oracle_cycles(const OConfig& c, const Kernel& k, const Launch& l, const std::string& text) {
  const std::map<unsigned, KInstr> decoded = decode_kernel(text);
  Memory mem = make_memory(k, l);
  const unsigned resident = resident_ctas(c, k, l);
  std::vector<OracleWarp> slots(c.max_warps);
  std::vector<bool> used(c.max_warps, false);
  std::vector<OracleCta> ctas;
  std::vector<size_t> last(c.sub_partitions, SIZE_MAX);
  std::vector<std::map<std::string, uint64_t>> unit_free(c.sub_partitions);
  std::vector<double> hits(c.sub_partitions, 0.5);
  uint64_t next_cta = 0, age = 0, end = 0;
  const uint64_t grid = l.grid.count();
  for (uint64_t t = 0;; ++t) {
    // Retire CTAs whose last result is out, then launch into free slots.
    for (size_t i = 0; i < ctas.size();) {
      if (ctas[i].cta->done() && ctas[i].last_done <= t) {
        end = std::max(end, ctas[i].last_done);
        for (size_t s : ctas[i].slots) used[s] = false;
        ctas.erase(ctas.begin() + static_cast<std::ptrdiff_t>(i));
        for (size_t j = i; j < ctas.size(); ++j)
          for (size_t s : ctas[j].slots) slots[s].cta = j;
      } else {
        ++i;
      }
    }
    while (next_cta < grid && ctas.size() < resident) {
      const Dim3 id{static_cast<uint32_t>(next_cta % l.grid.x), static_cast<uint32_t>(next_cta / l.grid.x % l.grid.y),
                    static_cast<uint32_t>(next_cta / (uint64_t{l.grid.x} * l.grid.y))};
      OracleCta oc;
      oc.cta = std::make_unique<Cta>(k, l, id, 0);
      for (Warp& w : oc.cta->warps) {
        const size_t s = static_cast<size_t>(std::find(used.begin(), used.end(), false) - used.begin());
        used[s] = true;
        slots[s] = OracleWarp{};
        slots[s].warp = &w;
        slots[s].cta = ctas.size();
        slots[s].part = static_cast<unsigned>(s % c.sub_partitions);
        slots[s].age = age++;
        oc.slots.push_back(s);
      }
      ctas.push_back(std::move(oc));
      ++next_cta;
    }
    if (ctas.empty()) return end;
    if (t > 50'000'000) return kNever;
    for (unsigned p = 0; p < c.sub_partitions; ++p) {
      for (unsigned issued = 0; issued < c.issue_width; ++issued) {
        // This sub-partition's warps, oldest first, in the policy's order.
        std::vector<size_t> order;
        for (size_t s = 0; s < slots.size(); ++s)
          if (used[s] && slots[s].part == p) order.push_back(s);
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return slots[a].age < slots[b].age; });
        const auto at = std::find(order.begin(), order.end(), last[p]);
        if (at != order.end()) {
          if (!c.lrr) {
            std::rotate(order.begin(), at, at + 1);
          } else {
            std::rotate(order.begin(), at + 1, order.end());
          }
        }
        size_t chosen = SIZE_MAX;
        for (size_t s : order) {
          OracleWarp& o = slots[s];
          const Warp& w = *o.warp;
          if (w.done() || w.waiting() || o.resume > t) continue;
          const KInstr& in = decoded.at(k.insts[w.pc()].line);
          const OTiming tm = timing(c, in);
          bool ready = true;
          for (const std::string& r : in.reads) {
            uint64_t when = o.ready.count(r) ? o.ready[r] : 0;
            if (o.writer_class.count(r))
              when = std::max(when, o.written[r] + c.pair_latency(o.writer_class[r], tm.dep));
            ready &= when <= t;
          }
          for (const std::string& r : in.writes) ready &= !o.ready.count(r) || o.ready[r] <= t;
          if (!in.constant_bank) ready &= unit_free[p][tm.unit] <= t;
          if (ready) {
            chosen = s;
            break;
          }
        }
        if (chosen == SIZE_MAX) break;
        OracleWarp& o = slots[chosen];
        OracleCta& oc = ctas[o.cta];
        std::vector<bool> waiting_before;
        for (size_t s : oc.slots) waiting_before.push_back(slots[s].warp->waiting());
        const StepResult r = step(*o.warp, *oc.cta, mem, t);
        if (r.status == StepResult::Status::error) return kNever;
        const KInstr& in = decoded.at(r.inst->line);
        OTiming tm = timing(c, in);
        unsigned latency = tm.latency;
        if (in.access) {
          tm.interval *= passes(r, in, c.memory);
          if (in.atomic) {
            latency = c.memory.atomic;
          } else if (r.space == Space::shared) {
            latency = c.memory.shared;
          } else if (r.space == Space::local) {
            latency = c.memory.local;
          } else if (r.space == Space::const_) {
            latency = c.memory.constant;
          } else if (r.space == Space::param) {
            latency = c.memory.param;
          } else {
            hits[p] += c.memory.global_hit_rate;
            latency = hits[p] >= 1.0 ? (hits[p] -= 1.0, c.memory.global) : c.memory.global_miss;
          }
        }
        const uint64_t done = t + latency;
        if (!in.constant_bank) unit_free[p][tm.unit] = t + testing_support::occupancy(tm);
        for (const std::string& reg : in.writes) {
          o.ready[reg] = done;
          o.written[reg] = t;
          o.writer_class[reg] = tm.dep;
        }
        if (in.control) o.resume = std::max(o.resume, done);
        for (size_t i = 0; i < oc.slots.size(); ++i) {
          OracleWarp& other = slots[oc.slots[i]];
          if (waiting_before[i] && !other.warp->waiting()) other.resume = std::max(other.resume, done);
        }
        oc.last_done = std::max(oc.last_done, done);
        last[p] = chosen;
      }
    }
  }
}

// A random kernel: per thread, a loop of a data-dependent trip count with
// arithmetic of every pipe, shared and global memory, a divergent branch
// and barriers.
std::string random_kernel(uint64_t seed) {
  SplitMix64 rng{seed};
  std::string b = ".version 8.0\n.target sm_90\n.address_size 64\n";
  b += ".visible .entry k(.param .u64 buf)\n{\n";
  b += ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .f32 %f<6>;\n.reg .b64 %rd<6>;\n";
  b += ".shared .align 4 .b8 sh[4096];\n";
  b += "ld.param.u64 %rd1, [buf];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n";
  b += "and.b32 %r3, %r1, 7;\nadd.s32 %r3, %r3, 1;\nmov.u32 %r4, 0;\ncvt.rn.f32.u32 %f1, %r1;\nmov.f32 %f2, "
       "0f3F000000;\n";
  b += "mul.wide.u32 %rd2, %r1, " + std::to_string(4 * (1 + rng.next() % 4)) + ";\nadd.s64 %rd3, %rd1, %rd2;\n";
  b += "shl.b32 %r5, %r1, " + std::to_string(2 + rng.next() % 4) +
       ";\nand.b32 %r5, %r5, 4092;\nmov.u32 %r6, sh;\nadd.s32 %r6, %r6, %r5;\n";
  b += "LOOP:\n";
  const char* ops[] = {"fma.rn.f32 %f1, %f1, %f2, %f2;",
                       "ex2.approx.f32 %f3, %f2;",
                       "add.s32 %r4, %r4, %r3;",
                       "mul.lo.s32 %r7, %r4, %r3;",
                       "ld.global.u32 %r8, [%rd3];",
                       "st.shared.u32 [%r6], %r4;",
                       "ld.shared.u32 %r9, [%r6];",
                       "add.f32 %f2, %f2, %f3;",
                       "st.global.u32 [%rd3], %r7;",
                       "cvt.rzi.s32.f32 %r10, %f1;",
                       "fma.rn.f64 %rd4, %rd4, %rd4, %rd4;"};
  const unsigned n = 4 + static_cast<unsigned>(rng.next() % 8);
  for (unsigned i = 0; i < n; ++i) {
    std::string op = ops[rng.next() % std::size(ops)];
    if (op.find("f64") != std::string::npos) op = "add.s64 %rd4, %rd4, %rd2;";
    b += op + "\n";
  }
  b += "setp.eq.u32 %p2, %r3, 3;\n@%p2 bra SKIP;\nadd.s32 %r4, %r4, %r8;\nadd.s32 %r4, %r4, %r9;\nSKIP:\n";
  b += "sub.s32 %r3, %r3, 1;\nsetp.ne.u32 %p1, %r3, 0;\n@%p1 bra LOOP;\n";
  if (rng.next() % 2) b += "bar.sync 0;\n";
  b += "add.s32 %r4, %r4, %r10;\nst.global.u32 [%rd3], %r4;\nret;\n}\n";
  return b;
}

TEST(KernelTimingOracle, RandomKernelsTakeTheOraclesCycles) {
  const char* name = std::getenv("PTXFU_TEST_CONFIG");
  unsigned kernels = 0;
  for (const std::string& cfg : {std::string(name ? name : "sm_90"), std::string("sm_75"), std::string("sm_120")}) {
    std::string yaml;
    for (const auto& e : models::embedded_configs())
      if (e.name == cfg) yaml = std::string(e.text);
    const OConfig c = testing_support::read_config(YAML::LoadFile(PTXFU_SOURCE_DIR "/configs/" + cfg + ".yaml"));
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const std::string text = random_kernel(seed * 7919 + cfg.size());
      const Kernel k = load_kernel(text, "random.ptx");
      Launch l;
      l.grid = {static_cast<uint32_t>(1 + seed % 5)};
      l.block = {static_cast<uint32_t>(32 * (1 + seed % 4) - (seed % 3) * 5)};
      l.args = {Arg::zeros(64 * 1024)};
      const ModelRun m = run_on_model(k, l, seed % 2 == 0, 0, yaml, kRegistersPerThread);
      ASSERT_TRUE(m.result.ok) << m.result.error << "\n" << text;
      EXPECT_EQ(m.cycles, oracle_cycles(c, k, l, text)) << cfg << " seed " << seed << "\n" << text;
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 18u);
}

}  // namespace
}  // namespace ptxfu::kernel::testing
