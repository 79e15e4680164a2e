#include "timing_oracle.h"

#include <algorithm>
#include <map>
#include <memory>

#include "models/kernel_sm.h"

namespace ptxfu::kernel::testing {
namespace {

using models::ArchConfig;
using models::Timing;
using models::Unit;

struct OracleWarp {
  Warp* warp = nullptr;
  size_t cta = 0;
  unsigned part = 0;
  uint64_t age = 0;
  std::map<uint32_t, uint64_t> ready, written;  // by frame register
  std::map<uint32_t, const unsigned*> row;
  uint64_t carry = 0, resume = 0;
};

struct OracleCta {
  std::unique_ptr<Cta> cta;
  std::vector<size_t> slots;
  uint64_t last_done = 0;
};

// Distinct lines, or the worst shared-memory bank conflict.
unsigned passes(const StepResult& r, const Inst& in, const models::MemoryTiming& m) {
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

}  // namespace

OracleRun run_oracle(const ArchConfig& c, const Kernel& k, const Launch& l) {
  OracleRun run;
  Memory mem = make_memory(k, l);
  // A straight-line program's one CTA is resident whatever its registers.
  const unsigned resident =
      k.straight_line ? 1 : models::residency(c, k, l, models::estimated_registers(k)).ctas;
  std::vector<OracleWarp> slots(c.max_warps);
  std::vector<bool> used(c.max_warps, false);
  std::vector<OracleCta> ctas;
  std::vector<size_t> last(c.sub_partitions, SIZE_MAX);
  std::vector<std::array<uint64_t, models::kNumUnits>> unit_free(c.sub_partitions);
  for (auto& u : unit_free) u.fill(0);
  std::vector<double> hits(c.sub_partitions, 0.5);
  uint64_t next_cta = 0, age = 0, end = 0;
  const uint64_t grid = l.grid.count();
  const Timing& lsu = c.units[static_cast<size_t>(Unit::lsu)];
  for (uint64_t t = 0;; ++t) {
    // Retire CTAs whose last result is out, then launch into free slots.
    for (size_t i = 0; i < ctas.size();) {
      if (ctas[i].cta->done() && ctas[i].last_done <= t) {
        end = std::max(end, ctas[i].last_done);
        for (const Warp& w : ctas[i].cta->warps) run.warp_registers.push_back(w.regs);
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
      oc.cta->warp_slots = c.max_warps;
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
    if (ctas.empty()) {
      run.cycles = end;
      return run;
    }
    if (t > 50'000'000) return run;
    for (unsigned p = 0; p < c.sub_partitions; ++p) {
      for (unsigned issued = 0; issued < c.issue_width; ++issued) {
        // This sub-partition's warps, oldest first, in the policy's order.
        std::vector<size_t> order;
        for (size_t s = 0; s < slots.size(); ++s)
          if (used[s] && slots[s].part == p) order.push_back(s);
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return slots[a].age < slots[b].age; });
        const auto at = std::find(order.begin(), order.end(), last[p]);
        if (at != order.end()) {
          if (c.scheduler == models::SchedulerPolicy::gto) {
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
          Timing tm = c.units[static_cast<size_t>(Unit::alu)];
          if (in.kind == Kind::arith) {
            tm = c.timing_for(in.form);
          } else {
            switch (in.unit()) {
              case kernel::Unit::pipe: tm = c.units[static_cast<size_t>(Unit::alu)]; break;
              case kernel::Unit::memory: tm = lsu; break;
              case kernel::Unit::branch: tm = c.units[static_cast<size_t>(Unit::branch)]; break;
              case kernel::Unit::warp: tm = c.units[static_cast<size_t>(Unit::warp)]; break;
            }
          }
          bool ready = true;
          for (unsigned i = 0; i < in.num_reads; ++i) {
            const uint32_t r = base + in.reads[i];
            uint64_t when = o.ready.count(r) ? o.ready[r] : 0;
            if (o.row.count(r) && o.row[r]) when = std::max(when, o.written[r] + o.row[r][static_cast<size_t>(tm.dep)]);
            ready &= when <= t;
          }
          for (unsigned i = 0; i < in.num_writes; ++i) {
            const uint32_t r = base + in.writes[i];
            ready &= !o.ready.count(r) || o.ready[r] <= t;
          }
          if (in.kind == Kind::arith && (isa::reads_carry(in.form) || isa::writes_carry(in.form)))
            ready &= o.carry <= t;
          ready &= unit_free[p][static_cast<size_t>(tm.unit)] <= t;
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
        if (r.status == StepResult::Status::error) return run;
        ++run.warp_instructions;
        const Inst& in = *r.inst;
        Timing tm = in.kind == Kind::arith ? c.timing_for(in.form) : c.units[static_cast<size_t>(Unit::alu)];
        unsigned latency = tm.latency;
        if (in.kind != Kind::arith) {
          switch (in.unit()) {
            case kernel::Unit::pipe: break;
            case kernel::Unit::memory:
              tm = lsu;
              latency = lsu.latency;
              break;
            case kernel::Unit::branch:
              tm = c.units[static_cast<size_t>(Unit::branch)];
              latency = tm.latency;
              break;
            case kernel::Unit::warp:
              tm = c.units[static_cast<size_t>(Unit::warp)];
              latency = tm.latency;
              break;
          }
        }
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
        unit_free[p][static_cast<size_t>(tm.unit)] = t + tm.occupancy();
        run.busy[static_cast<size_t>(tm.unit)] += tm.occupancy();
        const unsigned* row = c.dependency_table[static_cast<size_t>(tm.dep)].data();
        for (unsigned i = 0; i < in.num_writes; ++i) {
          const uint32_t reg = base + in.writes[i];
          o.ready[reg] = done;
          o.written[reg] = t;
          o.row[reg] = row;
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


}  // namespace ptxfu::kernel::testing
