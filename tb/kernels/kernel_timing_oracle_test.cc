// An independent timing oracle for kernels: a plain cycle-by-cycle
// scheduler, written apart from models/kernel_sm.cc, that steps the
// functional executor and applies the timing rules the README states
// (residency, slots and sub-partitions, GTO/LRR, the scoreboard with the
// dependency table, unit occupancy, memory latency by state space with the
// hit share, coalescing and bank conflicts, branches and barriers that hold
// a warp). It reads the config's numbers from its YAML (tb/config_yaml.h, not
// the model's loader) and computes residency itself for a given register
// count; it still takes each instruction's operands, form and control flow
// from the functional executor (src/kernel: step() and its decoded Inst).
// Seeded random kernels (18: 6 seeds on 3 configs) run on it and on the SM
// model; the cycle counts must be equal.
#include <algorithm>
#include <map>

#include "config_yaml.h"
#include "isa/forms.h"
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

struct OracleWarp {
  Warp* warp = nullptr;
  size_t cta = 0;
  unsigned part = 0;
  uint64_t age = 0;
  std::map<uint32_t, uint64_t> ready, written;  // by frame register
  std::map<uint32_t, std::string> writer_class;
  uint64_t carry = 0, resume = 0;
};

struct OracleCta {
  std::unique_ptr<Cta> cta;
  std::vector<size_t> slots;
  uint64_t last_done = 0;
};

// Distinct lines, or the worst shared-memory bank conflict.
unsigned passes(const StepResult& r, const Inst& in, const OMemory& m) {
  const unsigned bytes = std::max(1u, unsigned{in.access_bytes} * in.vec);
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

// A non-arithmetic instruction's unit (README, Kernels).
OTiming unit_timing(const OConfig& c, const Inst& in) {
  switch (in.unit()) {
    case kernel::Unit::pipe: return c.units.at("alu");
    case kernel::Unit::memory: return c.units.at("lsu");
    case kernel::Unit::branch: return c.units.at("branch");
    case kernel::Unit::warp: return c.units.at("warp");
  }
  return c.units.at("alu");
}

OTiming timing(const OConfig& c, const Inst& in) {
  if (in.kind != Kind::arith) return unit_timing(c, in);
  return testing_support::timing_of(c, isa::spell(in.form), std::string(isa::name(in.form.row->pipe)));
}

uint64_t oracle_cycles(const OConfig& c, const Kernel& k, const Launch& l) {
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
          const Inst& in = k.insts[w.pc()];
          const uint32_t base = w.frames.back().reg_base;
          const OTiming tm = timing(c, in);
          bool ready = true;
          for (unsigned i = 0; i < in.num_reads; ++i) {
            const uint32_t r = base + in.reads[i];
            uint64_t when = o.ready.count(r) ? o.ready[r] : 0;
            if (o.writer_class.count(r))
              when = std::max(when, o.written[r] + c.pair_latency(o.writer_class[r], tm.dep));
            ready &= when <= t;
          }
          for (unsigned i = 0; i < in.num_writes; ++i) {
            const uint32_t r = base + in.writes[i];
            ready &= !o.ready.count(r) || o.ready[r] <= t;
          }
          if (in.kind == Kind::arith && (isa::reads_carry(in.form) || isa::writes_carry(in.form)))
            ready &= o.carry <= t;
          ready &= unit_free[p][tm.unit] <= t;
          if (ready) {
            chosen = s;
            break;
          }
        }
        if (chosen == SIZE_MAX) break;
        OracleWarp& o = slots[chosen];
        OracleCta& oc = ctas[o.cta];
        const uint32_t base = o.warp->frames.back().reg_base;
        std::vector<bool> waiting_before;
        for (size_t s : oc.slots) waiting_before.push_back(slots[s].warp->waiting());
        const StepResult r = step(*o.warp, *oc.cta, mem, t);
        if (r.status == StepResult::Status::error) return kNever;
        const Inst& in = *r.inst;
        OTiming tm = timing(c, in);
        unsigned latency = tm.latency;
        const bool access = in.kind == Kind::ld || in.kind == Kind::st || in.kind == Kind::atom || in.kind == Kind::red;
        if (access) {
          tm.interval *= passes(r, in, c.memory);
          if (in.kind == Kind::atom || in.kind == Kind::red) {
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
        unit_free[p][tm.unit] = t + testing_support::occupancy(tm);
        for (unsigned i = 0; i < in.num_writes; ++i) {
          const uint32_t reg = base + in.writes[i];
          o.ready[reg] = done;
          o.written[reg] = t;
          o.writer_class[reg] = tm.dep;
        }
        if (in.kind == Kind::arith && isa::writes_carry(in.form)) o.carry = done;
        const bool control = in.kind == Kind::bra || in.kind == Kind::call || in.kind == Kind::ret ||
                             in.kind == Kind::exit || in.kind == Kind::func_end || in.kind == Kind::bar;
        if (control) o.resume = std::max(o.resume, done);
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
      EXPECT_EQ(m.cycles, oracle_cycles(c, k, l)) << cfg << " seed " << seed << "\n" << text;
      ++kernels;
    }
  }
  EXPECT_EQ(kernels, 18u);
}

}  // namespace
}  // namespace ptxfu::kernel::testing
