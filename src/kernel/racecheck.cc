// The race checker (kernel/racecheck.h): vector clocks per warp, a shadow
// record per byte of shared memory, and the cp.async destinations pending.
#include "kernel/racecheck.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

namespace ptxfu::kernel {
namespace {

constexpr uint16_t kNoWarp = 0xffff;
constexpr unsigned kClusterSlot = kBarriers;  // the clock slot of barrier.cluster

// What the checker remembers of one byte of shared memory.
struct Cell {
  uint32_t write_time = 0, read_time = 0;  // the accessing warp's own clock entry then
  uint32_t write_pc = 0, read_pc = 0;
  uint16_t write_warp = kNoWarp, read_warp = kNoWarp;
  uint8_t write_lane = 0, read_lane = 0;
  int32_t copy = -1;  // the pending cp.async (CtaState::copies) that will land here; -1: none
};

// A cp.async whose destination is not yet covered by a wait.
struct PendingCopy {
  RaceAccess access;
  uint32_t dst = 0, bytes = 0, group = 0;
  int64_t mbarrier = -1;     // cp.async.mbarrier.arrive attached it to this mbarrier (shared offset)
  uint32_t arrive_time = 0;  // the warp's clock entry at that arrive
  bool live = true;
};

// The distinct addresses of the executed lanes (with the space in the low
// bits: `with_space`), sorted, into `out`; their count.
unsigned distinct_lane_values(const StepResult& r, bool with_space, uint64_t* out) {
  unsigned n = 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (r.executed >> lane & 1)
      out[n++] = with_space ? r.addresses[lane] << 3 | static_cast<uint64_t>(r.space) : r.addresses[lane];
  std::sort(out, out + n);
  return static_cast<unsigned>(std::unique(out, out + n) - out);
}

void join(uint32_t* into, const uint32_t* from, size_t n) {
  for (size_t i = 0; i < n; ++i) into[i] = std::max(into[i], from[i]);
}

std::string_view access_name(bool write) { return write ? "Write" : "Read"; }

}  // namespace

struct RaceChecker::CtaState {
  Dim3 ctaid;
  size_t warps = 0;
  std::vector<uint32_t> clocks;  // [warp * warps + other]: what `warp` knows of `other`'s clock
  std::vector<Cell> shadow;
  std::vector<uint32_t> barrier_arrivals[kBarriers + 1];  // joined clocks of the current generation's arrivals
  std::vector<int> waiting;                               // per warp: the barrier it waits at; -1: none
  std::unordered_map<uint32_t, std::vector<uint32_t>> mbarrier_arrivals;
  std::unordered_map<uint64_t, std::vector<uint32_t>> sync_releases;  // by (space, address) of atom/red
  std::vector<PendingCopy> copies;
  size_t live_copies = 0;
  size_t first_live = 0;  // copies before it are all covered: the scans start here

  uint32_t* clock(size_t w) { return clocks.data() + w * warps; }
  uint32_t own(size_t w) const { return clocks[w * warps + w]; }
  // Whether an access by `warp` at its clock `time` is ordered before what `w` does now.
  bool ordered(uint16_t warp, uint32_t time, size_t w) const {
    return warp == kNoWarp || warp == w || clocks[w * warps + warp] > time;
  }
  // A release by `w`: its clock moves on and `into` learns what it knew.
  void release(size_t w, std::vector<uint32_t>& into) {
    ++clock(w)[w];
    into.resize(warps, 0);
    join(into.data(), clock(w), warps);
  }
  void acquire(size_t w, const std::vector<uint32_t>& from) {
    if (!from.empty()) join(clock(w), from.data(), warps);
  }
  // The copy's bytes are no longer pending: they count as written by its thread at `time`.
  void cover(size_t index, uint32_t time) {
    PendingCopy& c = copies[index];
    if (!c.live) return;
    c.live = false;
    for (uint32_t a = c.dst; a < c.dst + c.bytes && a < shadow.size(); ++a) {
      Cell& cell = shadow[a];
      if (cell.copy != static_cast<int32_t>(index)) continue;
      cell.copy = -1;
      cell.write_warp = static_cast<uint16_t>(c.access.warp);
      cell.write_lane = static_cast<uint8_t>(c.access.lane);
      cell.write_pc = c.access.pc;
      cell.write_time = time;
      cell.read_warp = kNoWarp;
    }
    while (first_live < copies.size() && !copies[first_live].live) ++first_live;
    if (--live_copies == 0) copies.clear(), first_live = 0;
  }
};

struct RaceChecker::Index {
  std::unordered_map<const Cta*, std::unique_ptr<CtaState>> ctas;
  std::unordered_map<uint64_t, size_t> sites;  // (first pc, second pc, kind) -> report_.sites
};

RaceChecker::RaceChecker(const Kernel& k) : k_(k), index_(std::make_unique<Index>()) {
  for (const Inst& in : k.insts)
    acquire_loads_.push_back(in.kind == Kind::ld && (in.mnemonic.find(".acquire") != std::string_view::npos ||
                                                     in.mnemonic.find(".volatile") != std::string_view::npos));
}
RaceChecker::~RaceChecker() = default;

RaceChecker::CtaState& RaceChecker::state_of(const Cta& cta) {
  std::unique_ptr<CtaState>& p = index_->ctas[&cta];
  const bool fresh = !p || p->ctaid.x != cta.ctaid.x || p->ctaid.y != cta.ctaid.y || p->ctaid.z != cta.ctaid.z;
  if (fresh) {  // a new CTA (a simulator reuses a retired one's storage, and this its vectors)
    if (!p) p = std::make_unique<CtaState>();
    CtaState& s = *p;
    s.ctaid = cta.ctaid;
    s.warps = cta.warps.size();
    s.clocks.assign(s.warps * s.warps, 0);
    s.shadow.assign(cta.shared.size(), Cell{});
    s.waiting.assign(s.warps, -1);
    for (auto& arrivals : s.barrier_arrivals) arrivals.clear();
    s.mbarrier_arrivals.clear();
    s.sync_releases.clear();
    s.copies.clear();
    s.live_copies = 0;
    s.first_live = 0;
  }
  return *p;
}

void RaceChecker::record(const CtaState& s, HazardKind kind, const RaceAccess& first, const RaceAccess& second,
                         uint32_t addr) {
  ++report_.hazards;
  const uint64_t key = uint64_t{first.pc} << 35 | uint64_t{second.pc} << 3 | static_cast<uint64_t>(kind);
  auto [it, added] = index_->sites.try_emplace(key, report_.sites.size());
  if (added) report_.sites.push_back({kind, first, second, s.ctaid, addr, 0});
  ++report_.sites[it->second].hazards;
}

namespace {

// The shared offset an ld/st lane touched in its own CTA, or false (another
// CTA's shared memory, another space).
bool own_shared(const Cta& cta, const StepResult& r, unsigned lane, uint64_t& a) {
  if (r.space != Space::shared) return false;
  a = r.addresses[lane];
  if (a >= kClusterRankStride) {
    if (a / kClusterRankStride - 1 != cta.cluster_rank) return false;
    a %= kClusterRankStride;
  }
  return true;
}

uint64_t operand_value(const Warp& w, const StepResult& r, const Operand& o, unsigned lane) {
  if (o.kind == Operand::Kind::imm) return o.value;
  if (o.kind == Operand::Kind::reg) return w.regs[(size_t{r.frame_reg_base} + o.reg) * 32 + lane];
  return 0;
}

}  // namespace

void RaceChecker::observe(const Cta& cta, const Warp& w, const StepResult& r) {
  if (!r.inst || r.status == StepResult::Status::error) return;
  const Inst& in = *r.inst;
  switch (in.kind) {
    case Kind::ld:
    case Kind::st:
    case Kind::async_copy:
    case Kind::async_wait:
    case Kind::async_arrive:
    case Kind::mbarrier:
    case Kind::bar:
    case Kind::cluster_bar:
    case Kind::atom:
    case Kind::red: break;
    default:
      if (r.status != StepResult::Status::exited) return;
  }
  CtaState& s = state_of(cta);
  const size_t wi = w.index;
  if (wi >= s.warps) return;
  const uint32_t exec = r.executed;
  switch (in.kind) {
    case Kind::atom:
    case Kind::red: sync_access(s, wi, r); break;
    case Kind::ld:
    case Kind::st: {
      if (acquire_loads_[r.pc]) sync_access(s, wi, r);
      const bool write = in.kind == Kind::st;
      const unsigned bytes = unsigned{in.access_bytes} * in.vec;
      for (unsigned lane = 0; lane < 32; ++lane) {
        uint64_t a = 0;
        if (!(exec >> lane & 1) || !own_shared(cta, r, lane, a)) continue;
        access(s, {r.pc, static_cast<uint32_t>(wi), lane}, a, bytes, write);
      }
      break;
    }
    case Kind::async_copy: async_copy(s, cta, r); break;
    case Kind::async_wait: {
      // The wait the executor set on the warp; a bulk wait (cp.async.bulk.wait_group) covers no cp.async.
      if (w.async_wait_bulk) break;
      for (size_t i = s.first_live; i < s.copies.size(); ++i) {
        const PendingCopy& c = s.copies[i];
        if (c.live && c.access.warp == wi && (w.async_wait_lanes >> c.access.lane & 1) &&
            uint64_t{c.group} + w.async_wait_groups < w.async_groups[c.access.lane])
          s.cover(i, s.own(wi));
      }
      break;
    }
    case Kind::async_arrive: async_arrive(s, wi, r); break;
    case Kind::mbarrier: mbarrier(s, wi, r); break;
    case Kind::bar:
      if (exec != 0) {
        const unsigned id = static_cast<unsigned>(operand_value(w, r, in.src[0], __builtin_ctz(exec)));
        if (id < kBarriers) {
          s.release(wi, s.barrier_arrivals[id]);
          if (in.bar_wait) s.waiting[wi] = static_cast<int>(id);
        }
      }
      break;
    case Kind::cluster_bar:
      if (exec != 0) {
        if (!in.bar_wait)
          s.release(wi, s.barrier_arrivals[kClusterSlot]);
        else if (w.barrier == kClusterBarrier)
          s.waiting[wi] = static_cast<int>(kClusterSlot);
        else
          s.acquire(wi, s.barrier_arrivals[kClusterSlot]);
      }
      break;
    default: break;
  }
  // Barriers release only in a step (the last arrival, or an exit): the
  // warps this one released learn what every arrival knew.
  settle_barriers(s, cta);
}

}  // namespace ptxfu::kernel

namespace ptxfu::kernel {

void RaceChecker::access(CtaState& s, const RaceAccess& who, uint64_t addr, unsigned bytes, bool write) {
  const size_t w = who.warp;
  bool reported = false;  // one hazard per thread access
  for (uint64_t a = addr; a < addr + bytes && a < s.shadow.size(); ++a) {
    Cell& c = s.shadow[a];
    if (!reported) {
      const uint32_t at = static_cast<uint32_t>(a);
      reported = true;
      if (c.copy >= 0)
        record(s, write ? HazardKind::async_write : HazardKind::async_read, s.copies[c.copy].access, who, at);
      else if (write && !s.ordered(c.write_warp, c.write_time, w))
        record(s, HazardKind::write_after_write, {c.write_pc, c.write_warp, c.write_lane}, who, at);
      else if (write && !s.ordered(c.read_warp, c.read_time, w))
        record(s, HazardKind::write_after_read, {c.read_pc, c.read_warp, c.read_lane}, who, at);
      else if (!write && !s.ordered(c.write_warp, c.write_time, w))
        record(s, HazardKind::read_after_write, {c.write_pc, c.write_warp, c.write_lane}, who, at);
      else
        reported = false;
    }
    if (write) {
      c.write_warp = static_cast<uint16_t>(w);
      c.write_lane = static_cast<uint8_t>(who.lane);
      c.write_pc = who.pc;
      c.write_time = s.own(w);
      c.read_warp = kNoWarp;
    } else {
      c.read_warp = static_cast<uint16_t>(w);
      c.read_lane = static_cast<uint8_t>(who.lane);
      c.read_pc = who.pc;
      c.read_time = s.own(w);
    }
  }
}

// The copies this cp.async made: a write by its thread for the hazards
// with earlier accesses, then pending until a wait covers them.
void RaceChecker::async_copy(CtaState& s, const Cta& cta, const StepResult& r) {
  for (auto it = cta.copies.rbegin(); it != cta.copies.rend(); ++it) {
    const AsyncCopy& c = *it;
    if (c.seq < r.async_first) break;
    if (c.seq >= r.async_first + r.async_count) continue;
    const RaceAccess who{r.pc, c.warp, c.lane};
    const uint32_t index = static_cast<uint32_t>(s.copies.size());
    for (uint32_t a = c.dst; a < c.dst + c.bytes && a < s.shadow.size(); ++a) s.shadow[a].copy = -1;
    access(s, who, c.dst, c.bytes, true);
    s.copies.push_back({who, c.dst, c.bytes, c.group});
    ++s.live_copies;
    for (uint32_t a = c.dst; a < c.dst + c.bytes && a < s.shadow.size(); ++a)
      s.shadow[a].copy = static_cast<int32_t>(index);
  }
}

// cp.async.mbarrier.arrive: the thread's pending copies wait for that
// mbarrier's wait now, and the arrive-on releases through it.
void RaceChecker::async_arrive(CtaState& s, size_t w, const StepResult& r) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(r.executed >> lane & 1)) continue;
    const uint32_t bar = static_cast<uint32_t>(r.addresses[lane]);
    for (size_t i = s.first_live; i < s.copies.size(); ++i) {
      PendingCopy& c = s.copies[i];
      if (c.live && c.access.warp == w && c.access.lane == lane && c.mbarrier < 0) {
        c.mbarrier = bar;
        c.arrive_time = s.own(w);
      }
    }
  }
  uint64_t bars[32];
  const unsigned n = distinct_lane_values(r, false, bars);
  for (unsigned i = 0; i < n; ++i) s.release(w, s.mbarrier_arrivals[static_cast<uint32_t>(bars[i])]);
}

void RaceChecker::mbarrier(CtaState& s, size_t w, const StepResult& r) {
  const Inst& in = *r.inst;
  uint64_t bars[32];
  const unsigned n = distinct_lane_values(r, false, bars);
  switch (in.mbar) {
    case MBarrierOp::arrive:
    case MBarrierOp::arrive_drop:
      for (unsigned b = 0; b < n; ++b) s.release(w, s.mbarrier_arrivals[static_cast<uint32_t>(bars[b])]);
      break;
    case MBarrierOp::test_wait:
    case MBarrierOp::try_wait:
      if (r.mbar_incomplete) break;
      for (unsigned b = 0; b < n; ++b) {
        const uint32_t bar = static_cast<uint32_t>(bars[b]);
        s.acquire(w, s.mbarrier_arrivals[bar]);
        for (size_t i = s.first_live; i < s.copies.size(); ++i)
          if (s.copies[i].live && s.copies[i].mbarrier == int64_t{bar}) s.cover(i, s.copies[i].arrive_time);
      }
      break;
    default: break;
  }
}

void RaceChecker::sync_access(CtaState& s, size_t w, const StepResult& r) {
  const Kind kind = r.inst->kind;
  uint64_t places[32];
  const unsigned n = distinct_lane_values(r, true, places);
  for (unsigned i = 0; i < n; ++i) {
    std::vector<uint32_t>& releases = s.sync_releases[places[i]];
    if (kind != Kind::red) s.acquire(w, releases);
    if (kind != Kind::ld) s.release(w, releases);
  }
}

void RaceChecker::settle_barriers(CtaState& s, const Cta& cta) {
  bool released[kBarriers + 1] = {};
  bool still[kBarriers + 1] = {};
  for (size_t w = 0; w < s.warps; ++w) {
    const int id = s.waiting[w];
    if (id < 0) continue;
    const int at = id == static_cast<int>(kClusterSlot) ? kClusterBarrier : id;
    if (cta.warps[w].barrier == at) {
      still[id] = true;
      continue;
    }
    s.acquire(w, s.barrier_arrivals[id]);
    s.waiting[w] = -1;
    released[id] = true;
  }
  for (unsigned id = 0; id < kBarriers; ++id)  // the generation is over: the next starts afresh
    if (released[id] && !still[id]) s.barrier_arrivals[id].clear();
}

std::string describe(const Kernel& k, const RaceSite& site) {
  const Inst& a = k.insts[site.first.pc];
  const Inst& b = k.insts[site.second.pc];
  const bool async = site.kind == HazardKind::async_read || site.kind == HazardKind::async_write;
  const bool first_write = site.kind != HazardKind::write_after_read;
  const bool second_write = site.kind == HazardKind::write_after_read || site.kind == HazardKind::write_after_write ||
                            site.kind == HazardKind::async_write;
  return fmt::format(
      "Error: Race reported between {} access at {} ('{}') by warp {} lane {} and {} access at {} ('{}') by warp {} "
      "lane {}{}, __shared__ 0x{:x} of block ({},{},{}) [{} hazard{}]",
      async ? "cp.async Write" : access_name(first_write), k.where(a), a.mnemonic, site.first.warp, site.first.lane,
      access_name(second_write), k.where(b), b.mnemonic, site.second.warp, site.second.lane,
      async ? " before the wait that covers the copy (cp.async.wait_group/wait_all or its mbarrier's wait)" : "",
      site.shared_addr, site.block.x, site.block.y, site.block.z, site.hazards, site.hazards == 1 ? "" : "s");
}

std::string racecheck_summary(const RaceReport& report) {
  const size_t n = report.sites.size();
  return fmt::format("RACECHECK SUMMARY: {} hazard{} displayed ({} error{}, 0 warnings)", n, n == 1 ? "" : "s", n,
                     n == 1 ? "" : "s");
}

}  // namespace ptxfu::kernel
