// The asynchronous side of a CTA: cp.async copies landing in shared memory,
// the arrive-ons that wait for them, and the mbarrier objects (kernel/async.h).
#include <algorithm>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "kernel/async.h"
#include "kernel/kernel.h"

namespace ptxfu::kernel {
namespace async {
namespace {

std::string missing(uint32_t addr) {
  return fmt::format("no mbarrier at __shared__ 0x{:x}: it was not initialised (mbarrier.init) or was invalidated",
                     addr);
}

void complete_phase(Cta& cta, MBarrier& b) {
  ++b.phase;
  b.pending = b.expected;
  b.tx = 0;
  ++cta.mbarrier_completions;
}

}  // namespace

std::string init(Cta& cta, uint32_t addr, uint64_t count) {
  if (count < 1 || count > kMaxCount) return fmt::format("mbarrier.init count {} is outside 1 to {}", count, kMaxCount);
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) {
    cta.mbarriers.push_back({});
    b = &cta.mbarriers.back();
  }
  *b = MBarrier{addr, true, static_cast<uint32_t>(count), static_cast<uint32_t>(count), 0, 0};
  return {};
}

std::string arrive(Cta& cta, uint32_t addr, uint64_t count, bool drop, bool no_complete, uint64_t tx, uint64_t& token) {
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) return missing(addr);
  if (count < 1 || count > b->pending)
    return fmt::format("arrive count {} on the mbarrier at __shared__ 0x{:x}, which has {} arrivals pending", count,
                       addr, b->pending);
  b->tx += static_cast<int64_t>(tx);
  b->pending -= static_cast<uint32_t>(count);
  if (drop) b->expected -= static_cast<uint32_t>(count);
  token = uint64_t{b->phase} | uint64_t{b->pending} << 32;
  if (b->pending == 0 && b->tx == 0) {
    if (no_complete)
      return fmt::format("mbarrier.arrive.noComplete would complete the phase of the mbarrier at __shared__ 0x{:x}",
                         addr);
    complete_phase(cta, *b);
  }
  return {};
}

std::string add_tx(Cta& cta, uint32_t addr, int64_t delta) {
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) return missing(addr);
  b->tx += delta;
  if (b->tx > static_cast<int64_t>(kMaxCount) || b->tx < -static_cast<int64_t>(kMaxCount))
    return fmt::format("the tx-count of the mbarrier at __shared__ 0x{:x} leaves its range (+-{})", addr, kMaxCount);
  if (b->pending == 0 && b->tx == 0) complete_phase(cta, *b);
  return {};
}

std::string phase_done(Cta& cta, uint32_t addr, uint64_t state, bool parity, bool& done) {
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) return missing(addr);
  done = parity ? (b->phase & 1) != (state & 1) : b->phase != static_cast<uint32_t>(state);
  return {};
}

std::string inval(Cta& cta, uint32_t addr) {
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) return missing(addr);
  b->valid = false;
  return {};
}

std::string add_pending(Cta& cta, uint32_t addr) {
  MBarrier* b = cta.find_mbarrier(addr);
  if (!b) return missing(addr);
  if (b->pending >= kMaxCount)
    return fmt::format("the pending count of the mbarrier at __shared__ 0x{:x} overflows", addr);
  ++b->pending;
  return {};
}

}  // namespace async

MBarrier* Cta::find_mbarrier(uint32_t addr) {
  for (MBarrier& b : mbarriers)
    if (b.addr == addr) return b.valid ? &b : nullptr;
  return nullptr;
}

namespace {

// Whether a copy of warp `w`, lane `lane`, issued before `before`, is still in flight.
bool in_flight(const std::vector<AsyncCopy>& copies, uint32_t w, unsigned lane, uint64_t before) {
  for (const AsyncCopy& c : copies)
    if (c.warp == w && c.lane == lane && c.seq < before) return true;
  return false;
}

// Whether a copy of `w` keeps its wait waiting: one of its waiting lanes',
// in a group older than the most recent `async_wait_groups`.
template <typename Copy>
bool holds(const Copy& c, const Warp& w, const uint32_t* groups) {
  return c.warp == w.index && (w.async_wait_lanes >> c.lane & 1) &&
         uint64_t{c.group} + w.async_wait_groups < groups[c.lane];
}

// Whether the cp.async (or, async_wait_bulk, cp.async.bulk) wait of `w` is still waiting.
bool still_waiting(const Cta& cta, const Warp& w) {
  if (w.async_wait_bulk) {
    for (const BulkCopy& c : cta.bulk)
      if (c.to_global && holds(c, w, w.bulk_groups)) return true;
    return false;
  }
  for (const AsyncCopy& c : cta.copies)
    if (holds(c, w, w.async_groups)) return true;
  return false;
}

}  // namespace

void Cta::land_bulk(uint64_t cycle) {
  size_t kept = 0;
  for (size_t i = 0; i < bulk.size(); ++i) {
    BulkCopy& c = bulk[i];
    if (c.land_at > cycle || c.land_at == kLandsNotYet) {
      if (kept != i) bulk[kept] = std::move(c);
      ++kept;
      continue;
    }
    if (c.to_global) continue;  // its bytes were written when it issued
    std::memcpy(shared.data() + c.dst, c.data.data(), c.data.size());
    const std::string e = async::add_tx(*this, c.mbarrier, -static_cast<int64_t>(c.data.size()));
    if (!e.empty() && async_error.empty())
      async_error = fmt::format("cp.async.bulk of warp {}, lane {} in block ({},{},{}), as its {} bytes landed: {}",
                                c.warp, c.lane, ctaid.x, ctaid.y, ctaid.z, c.data.size(), e);
  }
  bulk.resize(kept);
}

bool Cta::settle_async(uint64_t cycle) {
  size_t kept = 0;
  for (size_t i = 0; i < copies.size(); ++i) {
    AsyncCopy& c = copies[i];
    if (c.land_at <= cycle && c.land_at != kLandsNotYet) {
      std::memcpy(shared.data() + c.dst, c.data, c.bytes);
      continue;
    }
    if (kept != i) copies[kept] = c;
    ++kept;
  }
  copies.resize(kept);
  land_bulk(cycle);
  kept = 0;
  for (size_t i = 0; i < arrives.size(); ++i) {
    const AsyncArrive a = arrives[i];
    if (in_flight(copies, a.warp, a.lane, a.after)) {
      arrives[kept++] = a;
      continue;
    }
    uint64_t token = 0;
    const std::string e = async::arrive(*this, a.mbarrier, 1, false, false, 0, token);
    if (!e.empty() && async_error.empty())
      async_error = fmt::format(
          "cp.async.mbarrier.arrive of warp {}, lane {} in block ({},{},{}), as its copies "
          "landed: {}",
          a.warp, a.lane, ctaid.x, ctaid.y, ctaid.z, e);
  }
  arrives.resize(kept);
  bool released = false;
  for (Warp& w : warps)
    if (w.async_wait && !still_waiting(*this, w)) {
      w.async_wait = false;
      released = true;
    }
  return released;
}

bool Cta::waits_for_copies(const Warp& w) const { return still_waiting(*this, w); }

uint64_t Cta::next_async_event(uint64_t t) const {
  uint64_t next = kLandsNotYet;
  for (const AsyncCopy& c : copies)
    if (c.land_at != kLandsNotYet) next = std::min(next, std::max(c.land_at, t + 1));
  for (const BulkCopy& c : bulk)
    if (c.land_at != kLandsNotYet) next = std::min(next, std::max(c.land_at, t + 1));
  for (const AsyncArrive& a : arrives)
    if (!in_flight(copies, a.warp, a.lane, a.after)) next = std::min(next, t + 1);
  return next;
}

void Cta::time_copies(uint64_t first, uint32_t count, uint64_t land_at) {
  for (AsyncCopy& c : copies)
    if (c.seq >= first && c.seq < first + count) c.land_at = land_at;
  for (BulkCopy& c : bulk)
    if (c.seq >= first && c.seq < first + count)
      c.land_at = land_at == kLandsNotYet || land_at == kLandsUntimed ? land_at : land_at + bulk_latency;
}

std::string Cta::mbarrier_waits() const {
  std::map<int64_t, std::vector<uint32_t>> by_barrier;
  for (const Warp& w : warps)
    if (!w.done() && w.mbar_wait >= 0) by_barrier[w.mbar_wait].push_back(w.index);
  std::string out;
  for (const auto& [addr, ws] : by_barrier) {
    const MBarrier* b = nullptr;
    for (const MBarrier& m : mbarriers)
      if (m.addr == addr && m.valid) b = &m;
    std::string list;
    for (uint32_t w : ws) list += fmt::format("{}{}", list.empty() ? "" : ", ", w);
    out += fmt::format("{}a wait on the mbarrier at __shared__ 0x{:x} in block ({},{},{}) never completes",
                       out.empty() ? "" : "; ", addr, ctaid.x, ctaid.y, ctaid.z);
    if (b)
      out +=
          fmt::format(" (phase {}: {} of {} arrivals pending, tx-count {})", b->phase, b->pending, b->expected, b->tx);
    out += fmt::format(": warp{} {} wait{} on it", ws.size() > 1 ? "s" : "", list, ws.size() > 1 ? "" : "s");
  }
  return out;
}

}  // namespace ptxfu::kernel
